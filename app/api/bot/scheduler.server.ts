import { createOutageLog } from "../db/outage-log.server";
import type { Engine } from "./engine.server";

/**
 * Wakes the bot on every multiple of `intervalMs` of the wall clock (at most a minute), so the
 * instances on one database start each tick together and share it (decision 010): due briefings
 * are written, every rule is checked against the (cached) forecasts, and pushes held through
 * quiet hours that have ended go out as digests. A pass never overlaps the last.
 */
export function startScheduler(
  engine: Pick<Engine, "pass">,
  intervalMs = 30_000,
  clock: () => number = Date.now,
): { stop: () => Promise<void> } {
  let running: Promise<unknown> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const log = createOutageLog("[bot]", "scheduler pass failed");
  const tick = () => {
    if (running) return;
    running = engine
      .pass(Math.floor(clock() / intervalMs))
      .then(log.succeeded, log.failed)
      .finally(() => (running = null));
  };
  const schedule = () => {
    if (stopped) return;
    const boundary = (Math.floor(clock() / intervalMs) + 1) * intervalMs;
    const fire = () => {
      // A timer can fire a few ms before the wall clock reaches its boundary (libuv counts from the event loop's
      // cached time): such a tick would take the last one's number, find it done, and skip a whole interval.
      const early = boundary - clock();
      if (early > 0) {
        timer = setTimeout(fire, early);
        timer.unref();
        return;
      }
      tick();
      schedule();
    };
    timer = setTimeout(fire, boundary - clock());
    timer.unref();
  };
  tick();
  schedule();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
