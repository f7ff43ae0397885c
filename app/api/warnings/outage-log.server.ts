import { LRUCache } from "lru-cache";
import type { ApiLogger } from "../log.server";
import type { FeedError } from "./feed-error.server";

/** Failures that say the service is down or overloaded, not that one area's answer is bad. */
function isOutage(error: FeedError): boolean {
  if (error.reason === "timeout" || error.reason === "unreachable") return true;
  return error.reason === "http-error" && (error.status === null || error.status === 429 || error.status >= 500);
}

/**
 * How a warning service's failures are logged: as the database's outages are
 * (db/outage-log.server.ts), one warning when the service starts failing and a note when it
 * answers again, not a line per area and tick. A service is in an outage while any of its areas
 * failed to reach it on its last fetch (an area not asked for again within an hour is forgotten).
 * A bad answer for one area (malformed, hostile, too large, a 4xx) is that area's: one warning when
 * it starts, none while it lasts, and it never hides the service's own outages. A fault of this
 * layer's own ("internal") is an error every time.
 */
export function createWarningsOutageLog(log: ApiLogger, service: string) {
  const unreachable = new LRUCache<string, string>({ max: 10_000, ttl: 3_600_000 });
  const badAnswers = new LRUCache<string, string>({ max: 10_000, ttl: 3_600_000 });
  let inOutage = false;
  return {
    failed(area: string, error: FeedError) {
      if (error.reason === "internal") {
        log.error({ err: error, service, area }, `[warnings] ${service}: could not read the warnings of ${area}:`);
        return;
      }
      if (!isOutage(error)) {
        if (badAnswers.get(area) === error.reason) return;
        badAnswers.set(area, error.reason);
        log.warn(
          { service, area, reason: error.reason },
          `[warnings] ${service} gave ${area} an answer this app refuses: ${error.message}`,
        );
        return;
      }
      unreachable.set(area, error.reason);
      if (inOutage) return;
      inOutage = true;
      log.warn(
        { service, area, reason: error.reason },
        `[warnings] ${service} unavailable (${error.message}); its last warnings are served meanwhile, asked again every few minutes`,
      );
    },
    succeeded(area: string) {
      badAnswers.delete(area);
      unreachable.delete(area);
      unreachable.purgeStale();
      if (!inOutage || unreachable.size > 0) return;
      inOutage = false;
      log.info({ service }, `[warnings] ${service} is back`);
    },
  };
}

export type WarningsOutageLog = ReturnType<typeof createWarningsOutageLog>;
