import type { Db } from "../db/database.server";
import { createOutageLog } from "../db/outage-log.server";
import type { SessionEnds } from "./session-ends.server";

/** How often the sessions listened with here are checked: a log-out on another instance ends them within this. */
export const SESSION_FOLLOW_INTERVAL_MS = 500;
/** Sessions checked in one statement. */
const PAGE = 500;

/**
 * Ends, here, the sessions that ended on another instance (logged out, revoked, or gone
 * with their account): every `intervalMs` it reads which of the sessions someone is
 * listening with here are still live, and ends the rest. A log-out on this instance ends
 * its listeners at once (logOut calls `end`); this is for the others. Returns a function
 * that stops it (and waits for a look under way).
 */
export function followSessionEnds(db: Db, sessionEnds: SessionEnds, intervalMs = SESSION_FOLLOW_INTERVAL_MS): () => Promise<void> {
  let running: Promise<void> | null = null;
  const log = createOutageLog("[sessions]", "could not check for ended sessions");
  const look = async () => {
    const watched = sessionEnds.watched();
    for (let start = 0; start < watched.length; start += PAGE) {
      const page = watched.slice(start, start + PAGE);
      const live = await db.selectFrom("sessions").select("id").where("id", "in", page).where("revoked_at", "is", null).execute();
      const stillLive = new Set(live.map((row) => row.id));
      for (const id of page) if (!stillLive.has(id)) sessionEnds.end(id);
    }
  };
  const timer = setInterval(() => {
    running ??= look()
      .then(log.succeeded, log.failed)
      .finally(() => (running = null));
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
