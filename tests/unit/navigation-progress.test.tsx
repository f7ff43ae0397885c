// @vitest-environment happy-dom
import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { estimateProgress, LOADING_BAR, useNavigationProgress } from "~/lib/navigation/progress";

describe("LOADING_BAR", () => {
  it("matches docs/product-constants.md", () => {
    expect(LOADING_BAR).toMatchObject({ throttleMs: 200, durationMs: 2000, heightPx: 3 });
  });
});

describe("estimateProgress", () => {
  it("starts at 0, keeps growing and never reaches 100", () => {
    expect(estimateProgress(0)).toBe(0);
    let previous = 0;
    for (const elapsed of [10, 100, 500, 1000, 2000, 5000, 60_000, 3_600_000]) {
      const progress = estimateProgress(elapsed);
      expect(progress).toBeGreaterThan(previous);
      expect(progress).toBeLessThan(100);
      previous = progress;
    }
  });

  it("is about 70 % after the duration", () => {
    expect(estimateProgress(2000)).toBeCloseTo(70.5, 1);
  });
});

describe("useNavigationProgress", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function renderProgress() {
    return renderHook(({ active }) => useNavigationProgress(active), { initialProps: { active: false } });
  }
  const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));

  it("shows the bar after 200 ms, then completes and hides it", () => {
    const { result, rerender } = renderProgress();
    expect(result.current).toEqual({ visible: false, progress: 0 });

    rerender({ active: true });
    advance(199);
    expect(result.current.visible).toBe(false);
    advance(1);
    expect(result.current.visible).toBe(true);

    advance(500);
    expect(result.current.progress).toBeGreaterThan(0);
    expect(result.current.progress).toBeLessThan(100);

    rerender({ active: false });
    expect(result.current).toEqual({ visible: true, progress: 100 });
    advance(LOADING_BAR.tickMs * 2);
    expect(result.current).toEqual({ visible: false, progress: 0 });
  });

  it("never shows the bar for a navigation shorter than 200 ms", () => {
    const { result, rerender } = renderProgress();
    const seen: boolean[] = [];
    rerender({ active: true });
    advance(150);
    seen.push(result.current.visible);
    rerender({ active: false });
    seen.push(result.current.visible);
    advance(1000);
    seen.push(result.current.visible);
    expect(seen).toEqual([false, false, false]);
    expect(result.current.progress).toBe(0);
  });
});
