import type { GraphQLError } from "graphql";
import { databaseUnavailableError } from "./db/unavailable.server";
import { apiLog } from "./log.server";

/** While the database is down, requests refused for it are logged at most this often. */
const OUTAGE_WARN_MS = 30_000;

/** The API's answer to a request the database could not serve (SERVICE_UNAVAILABLE: worth repeating in a moment). */
export type OutageAnswer = (error: unknown) => GraphQLError;

/** One API's outage answer: it warns once per outage (at most one per OUTAGE_WARN_MS), not once per request refused. */
export function createOutageAnswer(): OutageAnswer {
  let lastWarned = -Infinity;
  return (error) => {
    if (performance.now() - lastWarned >= OUTAGE_WARN_MS) {
      lastWarned = performance.now();
      apiLog.warn(
        {},
        `[graphql] database unavailable; requests get SERVICE_UNAVAILABLE: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    return databaseUnavailableError();
  };
}
