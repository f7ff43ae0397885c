import { describe, expect, it } from "vitest";
import { liftNeeded } from "~/lib/toast/keep-clear";

// A 390 × 844 phone: the header ends at 57 px, the toasts' stack takes the bottom 100 px.
const toasts = { top: 744, bottom: 844, left: 0, right: 390 };
const box = (top: number, bottom: number, left = 16, right = 374) => ({ top, bottom, left, right });

describe("what toasts keep clear of", () => {
  it("lifts a chart or a list that ends behind them to end above them, with room to spare", () => {
    expect(liftNeeded(toasts, [box(500, 800)], 844, 57)).toBe(64);
    // The one that needs most decides.
    expect(liftNeeded(toasts, [box(500, 760), box(600, 820)], 844, 57)).toBe(84);
  });

  it("lifts nothing that they do not cover", () => {
    expect(liftNeeded(toasts, [box(100, 700)], 844, 57)).toBe(0);
    // Beside them (a wide screen's other column).
    expect(liftNeeded({ ...toasts, left: 416, right: 864 }, [box(500, 800, 16, 400)], 844, 57)).toBe(0);
  });

  it("leaves what goes on below the screen, and what would go under the header", () => {
    expect(liftNeeded(toasts, [box(300, 1400)], 844, 57)).toBe(0);
    expect(liftNeeded(toasts, [box(80, 800)], 844, 57)).toBe(0);
  });
});
