import type { ChangeMark, ChangeTracker } from "./db/change-tracker.server";
import type { Db } from "./db/database.server";
import { createOutageLog } from "./db/outage-log.server";

/** A cache in this process's memory that holds some users' data (answers, sessions, place lists, settings). */
export type UserCache = {
  /** The users it holds anything of. */
  users(): Iterable<string>;
  /** Drops everything it holds of the user. */
  forgetUser(userId: string): void;
};

/**
 * How long a deleted account's id is remembered here, to be dropped again: a request that read the account's rows
 * just before it went can still put them in a cache after the deletion dropped it (its answer is never given, since
 * the tables it read have changed, but it would sit in memory).
 */
export const FORGOTTEN_USER_MEMORY_MS = 60_000;

/**
 * Every per-process cache that holds users' data, so that a deleted account leaves nothing of it in memory: on the
 * instance that deleted it at once (`forgetUser`), on the others when they see it gone (followDeletedAccounts).
 */
export function createUserCaches(now: () => number = Date.now) {
  const caches = new Set<UserCache>();
  /** Deleted accounts' ids, with when they were dropped (oldest first). */
  const forgotten = new Map<string, number>();

  function dropEverywhere(userId: string) {
    for (const cache of caches) cache.forgetUser(userId);
  }

  return {
    add(cache: UserCache): void {
      caches.add(cache);
    },
    /** The users any cache holds anything of. */
    users(): Set<string> {
      const users = new Set<string>();
      for (const cache of caches) for (const userId of cache.users()) users.add(userId);
      return users;
    },
    /** The account is gone: every cache drops it now, and again at each `sweepForgotten` for a while. */
    forgetUser(userId: string): void {
      forgotten.delete(userId);
      forgotten.set(userId, now());
      dropEverywhere(userId);
    },
    /** Drops again what late readers put back of accounts deleted lately (see FORGOTTEN_USER_MEMORY_MS). */
    sweepForgotten(): void {
      const time = now();
      for (const [userId, at] of forgotten) {
        if (time - at > FORGOTTEN_USER_MEMORY_MS) forgotten.delete(userId);
        else dropEverywhere(userId);
      }
    },
  };
}

export type UserCaches = ReturnType<typeof createUserCaches>;

/** How often this process checks whether accounts it caches data of were deleted (by any instance). */
export const DELETED_ACCOUNTS_FOLLOW_INTERVAL_MS = 1_000;
/** Users checked in one statement. */
const PAGE = 500;

/**
 * Drops from this process's caches the accounts another instance deleted: whenever `users` may have changed (a
 * write announced by another instance, or any commit of another process on SQLite), it reads which of the users the
 * caches hold still exist, and forgets the rest. A deletion on this instance drops its caches at once; this is for
 * the others. (What a cache holds of a deleted account is never given out: the tables it was read from have been
 * written. This keeps it from staying in memory.) Returns a function that stops it (and waits for a look under way).
 */
export function followDeletedAccounts(
  db: Db,
  changes: ChangeTracker,
  caches: UserCaches,
  intervalMs = DELETED_ACCOUNTS_FOLLOW_INTERVAL_MS,
): () => Promise<void> {
  let mark: ChangeMark = changes.mark();
  let running: Promise<void> | null = null;
  const log = createOutageLog("[accounts]", "could not check for deleted accounts");
  const look = async () => {
    caches.sweepForgotten();
    const unchanged = changes.stillSince(mark, ["users"]);
    if (unchanged) {
      mark = unchanged;
      return;
    }
    // Taken before the reads: a deletion committed while they run is looked for again next time.
    const next = changes.mark();
    const held = [...caches.users()];
    for (let start = 0; start < held.length; start += PAGE) {
      const page = held.slice(start, start + PAGE);
      const found = await db.selectFrom("users").select("id").where("id", "in", page).execute();
      const live = new Set(found.map((row) => row.id));
      for (const userId of page) if (!live.has(userId)) caches.forgetUser(userId);
    }
    mark = next;
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
