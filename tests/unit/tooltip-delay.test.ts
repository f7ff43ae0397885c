import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createTooltipSkipState, TOOLTIP_DELAYS, tooltipOpenDelay } from "~/lib/tooltip-delay";

describe("tooltip timing", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("pins the seed constants: open after 700 ms, skip window 300 ms", () => {
    expect(TOOLTIP_DELAYS).toEqual({ delayDurationMs: 700, skipDelayDurationMs: 300 });
    expect(tooltipOpenDelay(false)).toBe(700);
    expect(tooltipOpenDelay(true)).toBe(0);
  });

  it("skips the delay while a tooltip is open and for 300 ms after it closes", () => {
    const state = createTooltipSkipState();
    const listener = vi.fn();
    state.subscribe(listener);
    expect(state.isActive()).toBe(false);
    state.opened();
    expect(state.isActive()).toBe(true);
    state.closed();
    vi.advanceTimersByTime(299);
    expect(state.isActive()).toBe(true);
    vi.advanceTimersByTime(1);
    expect(state.isActive()).toBe(false);
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it("opening another tooltip inside the window keeps skipping", () => {
    const state = createTooltipSkipState();
    state.opened();
    state.closed();
    vi.advanceTimersByTime(200);
    state.opened();
    vi.advanceTimersByTime(500);
    expect(state.isActive()).toBe(true);
  });
});
