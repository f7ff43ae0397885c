import { describe, expect, it } from "vitest";
import { closeOverlay, openOverlay } from "~/lib/overlays/overlay-store";
import { resolveOverlay } from "~/components/overlays/overlay-components";
import type { OverlayName } from "~/lib/overlays/registry";

describe("resolveOverlay", () => {
  it("returns the registered lazy component", () => {
    const component = resolveOverlay("about");
    expect(component).toBeDefined();
    expect(component.$$typeof).toBe(Symbol.for("react.lazy"));
  });

  it.each(["nope", "toString", "__proto__", "constructor", ""])("throws for %j", (name) => {
    expect(() => resolveOverlay(name)).toThrow(new Error("Overlay not found"));
  });
});

describe("openOverlay", () => {
  it("opens a registered overlay", () => {
    expect(() => openOverlay("about")).not.toThrow();
    closeOverlay();
  });

  it("throws for an unknown overlay", () => {
    expect(() => openOverlay("nope" as OverlayName)).toThrow(new Error("Overlay not found"));
  });
});
