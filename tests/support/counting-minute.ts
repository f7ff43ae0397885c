import { expect } from "vitest";
import { WINDOW_MS } from "~/api/request-limits.server";

/**
 * Waits until the request limits' counting minute (wall clock) has at least `needMs` left. A run of requests that
 * straddles the minute's end is judged by the sliding-window estimate, in which the minute before already counts for
 * a little less than its hits: the request after the limit may then be admitted, which is right, but not what a test
 * of the limit can read.
 */
export async function untilCountingMinuteHasLeft(needMs = 15_000) {
  await expect
    .poll(() => WINDOW_MS - (Date.now() % WINDOW_MS), { timeout: WINDOW_MS + 5_000, interval: 100 })
    .toBeGreaterThanOrEqual(needMs);
}
