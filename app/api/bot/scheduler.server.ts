import type { AlertService } from "./alerts.server";
import type { BriefingService } from "./briefings.server";
import type { PushService } from "./push.server";

/**
 * Wakes the bot every `intervalMs` (at most a minute): due briefings are written, then
 * every rule is checked against the (cached) forecasts, and pushes held through quiet
 * hours that have ended go out as digests. A pass never overlaps the last.
 */
export function startScheduler(
  bot: { briefings: BriefingService; alerts: AlertService; push: PushService },
  intervalMs = 30_000,
): { stop: () => Promise<void> } {
  let running: Promise<unknown> | null = null;
  const pass = async () => {
    await bot.briefings.runDue();
    await bot.alerts.evaluateAll();
    await bot.push.sendDigests();
  };
  const tick = () => {
    if (running) return;
    running = pass()
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
