import { LRUCache } from "lru-cache";
import type { ApiLogger } from "../log.server";
import type { FeedError } from "./feed-error.server";

/**
 * How a warning service's failures are logged: as the database's outages are
 * (db/outage-log.server.ts), one warning when the service starts failing and a note when it
 * answers again, not a line per area and tick. A service is in an outage while any of its areas
 * failed on its last fetch (an area not asked for again within an hour is forgotten); a fault
 * of this layer's own ("internal") is an error every time.
 */
export function createWarningsOutageLog(log: ApiLogger, service: string) {
  const failing = new LRUCache<string, string>({ max: 10_000, ttl: 3_600_000 });
  let inOutage = false;
  return {
    failed(area: string, error: FeedError) {
      if (error.reason === "internal") {
        log.error({ err: error, service, area }, `[warnings] ${service}: could not read the warnings of ${area}:`);
        return;
      }
      failing.set(area, error.reason);
      if (inOutage) return;
      inOutage = true;
      log.warn(
        { service, area, reason: error.reason },
        `[warnings] ${service} unavailable (${error.message}); its last warnings are served meanwhile, asked again every few minutes`,
      );
    },
    succeeded(area: string) {
      failing.delete(area);
      failing.purgeStale();
      if (!inOutage || failing.size > 0) return;
      inOutage = false;
      log.info({ service }, `[warnings] ${service} is back`);
    },
  };
}

export type WarningsOutageLog = ReturnType<typeof createWarningsOutageLog>;
