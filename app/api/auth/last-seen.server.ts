import { LRUCache } from "lru-cache";
import type { Db } from "../db/database.server";
import { createOutageLog } from "../db/outage-log.server";
import { isForeignKeyViolation } from "../db/unique-violation.server";

/** A session's last use is written at most this often by one instance: the sessions list tells it to within this. */
export const LAST_SEEN_INTERVAL_MS = 5 * 60_000;
/** Sessions whose last write this instance remembers; one it forgot is written again at its next request. */
const REMEMBERED_SESSIONS = 10_000;

/**
 * When each session was last used (`session_activity`), written cheaply: at most once per LAST_SEEN_INTERVAL_MS per
 * session and instance, off the request's path (the request never waits for it), and in a table of its own, which no
 * answer but the sessions list reads (a write to `sessions` would drop every cached answer: decision 002). `db` should
 * be one whose queries no cached answer depends on (ReadRecorder.exempt).
 */
export function createLastSeen(db: Db, now: () => Date, intervalMs = LAST_SEEN_INTERVAL_MS) {
  const written = new LRUCache<string, number>({ max: REMEMBERED_SESSIONS });
  const writing = new Set<Promise<void>>();
  const log = createOutageLog("[sessions]", "could not note when a session was used");

  function write(sessionId: string, at: string): Promise<void> {
    // From the session's row, so a session that ended meanwhile gets no activity row (and no foreign-key error).
    return db
      .insertInto("session_activity")
      .columns(["session_id", "last_seen_at"])
      .expression((eb) =>
        eb
          .selectFrom("sessions")
          .select((eb) => ["id", eb.val(at).as("last_seen_at")])
          .where("id", "=", sessionId),
      )
      .onConflict((conflict) => conflict.column("session_id").doUpdateSet({ last_seen_at: at }))
      .execute()
      .then(() => undefined);
  }

  return {
    /** The session is being used now. */
    seen(sessionId: string): void {
      const time = now().getTime();
      const last = written.get(sessionId);
      if (last !== undefined && time - last < intervalMs) return;
      written.set(sessionId, time);
      const done = write(sessionId, new Date(time).toISOString()).then(log.succeeded, (error: unknown) => {
        // The session went (its account deleted) between the read and the write: nothing to note.
        if (isForeignKeyViolation(error)) return;
        // Not written: the next request tries again.
        written.delete(sessionId);
        log.failed(error);
      });
      writing.add(done);
      void done.finally(() => writing.delete(done));
    },
    /** Waits for the writes under way (the API waits before it closes the database). */
    async settled(): Promise<void> {
      await Promise.all(writing);
    },
  };
}

export type LastSeen = ReturnType<typeof createLastSeen>;
