import { afterEach, describe, expect, it, vi } from "vitest";
import { startScheduler } from "~/api/bot/scheduler.server";

afterEach(() => {
  vi.useRealTimers();
});

describe("the engine scheduler", () => {
  it("runs a pass at once and then on every boundary of the wall clock, numbered by it, never two at a time", async () => {
    vi.useFakeTimers();
    vi.setSystemTime(30_000 * 1000 + 12_345);
    const ticks: number[] = [];
    let finish: () => void = () => {};
    const scheduler = startScheduler(
      {
        pass: (tick) => {
          ticks.push(tick);
          return new Promise((resolve) => (finish = () => resolve({ shards: [], briefings: 0, alerts: 0, warnings: 0, digests: 0 })));
        },
      },
      30_000,
    );
    expect(ticks).toEqual([1000]);
    // The first pass is still running at the boundary: that tick is skipped here (another instance takes it).
    await vi.advanceTimersByTimeAsync(30_000 - 12_345);
    expect(ticks).toEqual([1000]);
    finish();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(ticks).toEqual([1000, 1002]);
    expect(Date.now() % 30_000).toBe(0);
    finish();
    await scheduler.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(ticks).toEqual([1000, 1002]);
  });

  it("waits for the boundary itself when its timer fires before the wall clock gets there", async () => {
    vi.useFakeTimers();
    vi.setSystemTime(30_000 * 1000 + 12_345);
    const ticks: number[] = [];
    // A pass's first steps take 3 ms before the next timer is set, which the event loop's cached time (the timers'
    // base) does not see: the timer then fires 3 ms before its boundary on the wall clock.
    let unseen = 0;
    const scheduler = startScheduler(
      {
        pass: (tick) => {
          ticks.push(tick);
          unseen = 3;
          return Promise.resolve().then(() => {
            unseen = 0;
            return { shards: [], briefings: 0, alerts: 0, warnings: 0, digests: 0 };
          });
        },
      },
      30_000,
      () => Date.now() + unseen,
    );
    await vi.advanceTimersByTimeAsync(30_000 - 12_345);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(ticks).toEqual([1000, 1001, 1002, 1003]);
    await scheduler.stop();
  });
});
