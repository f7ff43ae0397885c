import type { BriefingService } from "./briefings.server";

/** Wakes the bot every `intervalMs` (at most a minute); a pass never overlaps the previous one. */
export function startScheduler(briefings: BriefingService, intervalMs = 30_000): { stop: () => Promise<void> } {
  let running: Promise<unknown> | null = null;
  const tick = () => {
    if (running) return;
    running = briefings
      .runDue()
      .catch((error: unknown) => console.error("[bot] scheduler pass failed:", error))
      .finally(() => (running = null));
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  tick();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
