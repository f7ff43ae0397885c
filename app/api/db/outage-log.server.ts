import { apiLog } from "../log.server";
import { isDatabaseUnavailable } from "./unavailable.server";

/**
 * How a background loop (the inbox and session followers, the engine, write-behind stores)
 * reports a failed round. A database that cannot be reached (restarting, a network cut) is
 * an expected outage: one warning when it starts and a note when it ends, not a line every
 * round. Any other failure is an incident and logged as an error each time.
 */
export type OutageLog = {
  /** The round failed with `error`. */
  failed(error: unknown): void;
  /** A round succeeded: an outage, if one was reported, is over. */
  succeeded(): void;
};

export function createOutageLog(label: string, what: string): OutageLog {
  let inOutage = false;
  return {
    failed(error) {
      if (!isDatabaseUnavailable(error)) {
        apiLog.error({ err: error }, `${label} ${what}:`);
        return;
      }
      if (inOutage) return;
      inOutage = true;
      const reason = error instanceof Error ? error.message : String(error);
      apiLog.warn({}, `${label} ${what}: the database is unavailable (${reason}); trying again until it is back`);
    },
    succeeded() {
      if (!inOutage) return;
      inOutage = false;
      apiLog.info({}, `${label} the database is back`);
    },
  };
}
