// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Field } from "~/components/ui/form-parts";

afterEach(cleanup);

// The one Field of every form (account, preferences, the overlays'): the e2e tests and axe find fields by these names and links.
describe("Field", () => {
  it("names its input by the label and, with nothing to say, describes it by nothing", () => {
    render(<Field label="Email" input={{ name: "email", type: "email", autoComplete: "email", "data-autofocus": "" }} />);
    const input = screen.getByLabelText("Email");
    expect(input.getAttribute("name")).toBe("email");
    expect(input.getAttribute("data-autofocus")).toBe("");
    expect(input.className).toBe("input");
    expect(input.hasAttribute("aria-describedby")).toBe(false);
    expect(input.hasAttribute("aria-invalid")).toBe(false);
  });

  it("describes its input by the hint, then the problem, and marks it invalid while there is one", () => {
    render(<Field id="zone" label="Time zone" hint="As on a map" error="Unknown zone" input={{ value: "Mars", readOnly: true }} />);
    const input = screen.getByLabelText("Time zone");
    expect(input.id).toBe("zone");
    expect(input.getAttribute("aria-describedby")).toBe("zone-hint zone-error");
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(document.getElementById("zone-hint")!.textContent).toBe("As on a map");
    expect(screen.getByRole("alert").id).toBe("zone-error");
    expect(screen.getByRole("alert").textContent).toBe("Unknown zone");
  });

  it("ties a select to its label, hint and problem the same way, its choices as value and text", () => {
    render(
      <Field
        id="ahead"
        label="Look ahead"
        hint="Hours"
        error="Too far"
        select={{
          options: [
            [6, "6 hours"],
            ["", "All"],
          ],
        }}
      />,
    );
    const select = screen.getByLabelText("Look ahead");
    expect(select.tagName).toBe("SELECT");
    expect(select.getAttribute("aria-describedby")).toBe("ahead-hint ahead-error");
    expect(select.getAttribute("aria-invalid")).toBe("true");
    expect(Array.from((select as HTMLSelectElement).options, (option) => [option.value, option.text])).toEqual([
      ["6", "6 hours"],
      ["", "All"],
    ]);
  });

  it("puts what it is given after the input, before the hint", () => {
    const { container } = render(
      <Field id="zone" label="Time zone" hint="As on a map" input={{}}>
        <button type="button">Use this device's</button>
      </Field>,
    );
    expect(Array.from(container.firstElementChild!.children, (child) => child.tagName)).toEqual(["LABEL", "INPUT", "BUTTON", "P"]);
  });
});
