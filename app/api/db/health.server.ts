import { sql } from "kysely";
import type { DatabaseDialect, Db } from "./database.server";

/** What /healthz says about the database: which one, and whether it answered just now. */
export type DatabaseHealth = { dialect: DatabaseDialect; reachable: boolean };

/** Longer than a healthy database ever takes, shorter than a proxy's or HEALTHCHECK's own timeout. */
export const HEALTH_TIMEOUT_MS = 2_000;

/**
 * Asks the database a `select 1` and reports whether it answered within `timeoutMs`. A
 * database that is down, refusing connections or too busy to answer in time counts as not
 * reachable: a readiness check should take this instance out then. Never throws.
 */
export function createDatabaseProbe(db: Db, dialect: DatabaseDialect, timeoutMs = HEALTH_TIMEOUT_MS): () => Promise<DatabaseHealth> {
  return async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
      timer.unref();
    });
    const answered = sql`select 1`.execute(db).then(
      () => true,
      () => false,
    );
    try {
      return { dialect, reachable: await Promise.race([answered, timedOut]) };
    } finally {
      clearTimeout(timer);
    }
  };
}
