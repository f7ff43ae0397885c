import { hash, randomBytes, randomUUID } from "node:crypto";
import type { ChangeTracker } from "../db/change-tracker.server";
import type { Db } from "../db/database.server";
import { createReadCache } from "../db/read-cache.server";
import type { ReadLog } from "../db/read-log.server";
import type { SessionTable } from "../db/tables";
import type { UserCache } from "../user-caches.server";

export const SESSION_LIFETIME_SECONDS = 7 * 24 * 60 * 60;

/** Tokens are 256 random bits; only their SHA-256 is stored, so a database leak yields no usable token. */
// crypto.hash, one call: a third of createHash's time on every request that carries a token.
export function hashToken(token: string): string {
  return hash("sha256", token, "base64url");
}

/** The most of a User-Agent kept: enough for any real browser's, not a place to store a megabyte. */
export const USER_AGENT_MAX_LENGTH = 512;

/** `userAgent`: what the client that logs in says it is (the sessions list names its browser and system from it). */
export async function createSession(db: Db, userId: string, now: Date, userAgent: string | null = null) {
  const token = randomBytes(32).toString("base64url");
  const session: SessionTable = {
    id: randomUUID(),
    user_id: userId,
    token_hash: hashToken(token),
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + SESSION_LIFETIME_SECONDS * 1000).toISOString(),
    revoked_at: null,
    user_agent: userAgent ? userAgent.slice(0, USER_AGENT_MAX_LENGTH) : null,
  };
  await db.insertInto("sessions").values(session).execute();
  return { ...session, token };
}

/**
 * The session a token names, if it exists, is not revoked and has not expired, with its
 * user's account (every request asks; `me` then needs no query of its own).
 */
async function findSessionByHash(db: Db, tokenHash: string, now: Date) {
  return (
    (await db
      .selectFrom("sessions")
      .innerJoin("users", "users.id", "sessions.user_id")
      .select(["sessions.id", "sessions.user_id", "sessions.expires_at", "users.email", "users.created_at"])
      .where("sessions.token_hash", "=", tokenHash)
      .where("sessions.revoked_at", "is", null)
      .where("sessions.expires_at", ">", now.toISOString())
      .executeTakeFirst()) ?? null
  );
}

type SessionRow = NonNullable<Awaited<ReturnType<typeof findSessionByHash>>>;

/** Sessions cached in memory; a lookup beyond that many reads the database again. */
const SESSION_CACHE_ENTRIES = 10_000;

/**
 * The session a token names (see findSessionByHash), remembered: every request asks, and
 * the answer stays the same until the session or its user is written (log-out revokes it
 * at once, in this process or another) or it expires. What it was read from goes into
 * `log`, the asking request's.
 */
export function createSessionLookup(db: Db, changes: ChangeTracker, now: () => Date) {
  const sessions = createReadCache<string, SessionRow>({
    changes,
    db,
    maxEntries: SESSION_CACHE_ENTRIES,
    fresh: (session) => session.expires_at > now().toISOString(),
  });
  return {
    find(token: string, log: ReadLog): Promise<SessionRow | null> {
      if (!token || token.length > 200) return Promise.resolve(null);
      const tokenHash = hashToken(token);
      return sessions.get(tokenHash, log, (logged) => findSessionByHash(logged, tokenHash, now()));
    },
    // A cached session holds its user's email: a deleted account's go (see user-caches.server.ts).
    *users() {
      for (const [, session] of sessions.entries()) yield session.user_id;
    },
    forgetUser(userId: string) {
      sessions.forget((_, session) => session.user_id === userId);
    },
  } satisfies UserCache & { find: unknown };
}

export type SessionLookup = ReturnType<typeof createSessionLookup>;

export async function revokeSession(db: Db, sessionId: string, now: Date): Promise<void> {
  await db.updateTable("sessions").set({ revoked_at: now.toISOString() }).where("id", "=", sessionId).execute();
}

/**
 * Revokes the user's live sessions (all, or all but `except`) and returns their ids: the caller ends their listeners
 * here once the write has committed (sessionEnds.end); other instances' followers find them revoked.
 */
export async function revokeSessionsOf(db: Db, userId: string, now: Date, { except }: { except?: string } = {}): Promise<string[]> {
  const at = now.toISOString();
  let revoke = db
    .updateTable("sessions")
    .set({ revoked_at: at })
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", at);
  if (except) revoke = revoke.where("id", "<>", except);
  return (await revoke.returning("id").execute()).map((row) => row.id);
}
