import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { Db } from "../db/database.server";

export const SESSION_LIFETIME_SECONDS = 7 * 24 * 60 * 60;

/** Tokens are 256 random bits; only their SHA-256 is stored, so a database leak yields no usable token. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

export async function createSession(db: Db, userId: string, now: Date) {
  const token = randomBytes(32).toString("base64url");
  const session = {
    id: randomUUID(),
    user_id: userId,
    token_hash: hashToken(token),
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + SESSION_LIFETIME_SECONDS * 1000).toISOString(),
    revoked_at: null,
  };
  await db.insertInto("sessions").values(session).execute();
  return { ...session, token };
}

/**
 * The session a token names, if it exists, is not revoked and has not expired, with its
 * user's account (every request asks; `me` then needs no query of its own).
 */
export async function findSession(db: Db, token: string, now: Date) {
  if (!token || token.length > 200) return null;
  return (
    (await db
      .selectFrom("sessions")
      .innerJoin("users", "users.id", "sessions.user_id")
      .select(["sessions.id", "sessions.user_id", "users.email", "users.created_at"])
      .where("sessions.token_hash", "=", hashToken(token))
      .where("sessions.revoked_at", "is", null)
      .where("sessions.expires_at", ">", now.toISOString())
      .executeTakeFirst()) ?? null
  );
}

export async function revokeSession(db: Db, sessionId: string, now: Date): Promise<void> {
  await db.updateTable("sessions").set({ revoked_at: now.toISOString() }).where("id", "=", sessionId).execute();
}
