import type { Db } from "../db/database.server";
import type { SessionEnds, WatchedSession } from "./session-ends.server";

/** Whether the session is still good: not past its expiry, and not revoked (by this process or another). */
async function sessionLive(db: Db, session: WatchedSession, now: Date): Promise<boolean> {
  if (Date.parse(session.expiresAt) <= now.getTime()) return false;
  const row = await db.selectFrom("sessions").select("revoked_at").where("id", "=", session.id).executeTakeFirst();
  return Boolean(row) && row!.revoked_at === null;
}

/**
 * A subscription's events for as long as the session it was opened with lasts: it ends
 * when the session is logged out or expires, and each event is checked against the
 * session before it goes out (a log-out in another process, or a clock that moved on),
 * so nothing reaches a session that has ended.
 */
export function untilSessionEnds<T>(
  stream: AsyncIterator<T>,
  session: WatchedSession,
  services: { db: Db; now: () => Date; sessionEnds: SessionEnds },
): AsyncIterableIterator<T> {
  const done = (): IteratorResult<T> => ({ value: undefined, done: true });
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    stopWatching();
    void stream.return?.();
  };
  const stopWatching = services.sessionEnds.watch(session, finish);

  const bound: AsyncIterableIterator<T> = {
    async next() {
      if (finished) return done();
      const result = await stream.next();
      if (result.done || finished) return result.done ? result : done();
      if (!(await sessionLive(services.db, session, services.now()))) {
        // Everyone listening with this session hears it (its socket closes too).
        services.sessionEnds.end(session.id);
        finish();
        return done();
      }
      return result;
    },
    async return() {
      finish();
      return done();
    },
    async throw(error?: unknown) {
      finish();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return bound;
    },
  };
  return bound;
}
