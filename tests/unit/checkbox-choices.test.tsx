// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CheckboxChoices } from "~/components/ui/form-parts";

afterEach(cleanup);

function picker(value: string[]) {
  const onChange = vi.fn();
  render(
    <CheckboxChoices
      legend="Conditions"
      options={["FOG", "RAIN", "SNOW"]}
      value={value}
      onChange={onChange}
      label={(option) => option}
      errorId="e"
      error={null}
    />,
  );
  return onChange;
}

describe("CheckboxChoices", () => {
  it("adds and removes a choice, keeping the options' order", () => {
    const onChange = picker(["SNOW"]);
    fireEvent.click(screen.getByRole("checkbox", { name: "FOG" }));
    expect(onChange).toHaveBeenLastCalledWith(["FOG", "SNOW"]);
    fireEvent.click(screen.getByRole("checkbox", { name: "SNOW" }));
    expect(onChange).toHaveBeenLastCalledWith([]);
  });

  it("keeps chosen values it does not offer", () => {
    const onChange = picker(["CLEAR", "RAIN"]);
    expect(screen.getByRole("checkbox", { name: "RAIN" })).toHaveProperty("checked", true);
    fireEvent.click(screen.getByRole("checkbox", { name: "FOG" }));
    expect(onChange).toHaveBeenLastCalledWith(["CLEAR", "FOG", "RAIN"]);
    fireEvent.click(screen.getByRole("checkbox", { name: "RAIN" }));
    expect(onChange).toHaveBeenLastCalledWith(["CLEAR"]);
  });
});
