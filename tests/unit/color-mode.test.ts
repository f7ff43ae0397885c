import { describe, expect, it, vi } from "vitest";
import { forcedColorMode, nextColorModePreference } from "~/lib/theme/color-mode";

describe("forcedColorMode", () => {
  it("is null when no route forces a mode", () => {
    expect(forcedColorMode([])).toBeNull();
    expect(forcedColorMode([undefined, {}, { other: 1 }])).toBeNull();
  });

  it("takes the deepest route's light or dark", () => {
    expect(forcedColorMode([{ colorMode: "light" }, { colorMode: "dark" }])).toBe("dark");
    expect(forcedColorMode([{ colorMode: "dark" }, { colorMode: "light" }])).toBe("light");
  });

  it("ignores routes without a handle", () => {
    expect(forcedColorMode([{ colorMode: "dark" }, undefined, {}])).toBe("dark");
  });

  it.each(["system", "blue", 1, null])("warns about %j and forces nothing", (colorMode) => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(forcedColorMode([{ colorMode: "dark" }, { colorMode }])).toBeNull();
    expect(warn).toHaveBeenCalledOnce();
    expect(warn.mock.calls[0]?.[0]).toContain(JSON.stringify(colorMode));
  });
});

describe("nextColorModePreference", () => {
  it("cycles system → light → dark → system", () => {
    expect(nextColorModePreference("system")).toBe("light");
    expect(nextColorModePreference("light")).toBe("dark");
    expect(nextColorModePreference("dark")).toBe("system");
  });
});
