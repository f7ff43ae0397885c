import { randomBytes } from "node:crypto";
import type { Db } from "../db/database.server";
import type { AccountTokenTable } from "../db/tables";
import { hashToken } from "./sessions.server";

export type AccountTokenPurpose = "PASSWORD_RESET" | "EMAIL_CHANGE";

/** How long a link works: a reset briefly (it is as good as the password), an email change for a day. */
export const TOKEN_LIFETIME_MS: Record<AccountTokenPurpose, number> = {
  PASSWORD_RESET: 30 * 60_000,
  EMAIL_CHANGE: 24 * 3_600_000,
};

/** Why a token does not work: it never did, it ran out, or it was used. */
export type TokenRefusal = "TOKEN_INVALID" | "TOKEN_EXPIRED" | "TOKEN_USED";

/**
 * Makes a single-use token for a link sent by mail, in `executor` (the transaction that queues
 * the mail): 32 random bytes, of which only the SHA-256 is stored (a database leak yields no
 * working link). Earlier unused tokens of the same purpose for the account stop working: only
 * the newest link does.
 */
export async function issueAccountToken(
  executor: Db,
  { purpose, userId, email = null, now }: { purpose: AccountTokenPurpose; userId: string; email?: string | null; now: Date },
): Promise<{ token: string; tokenHash: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const tokenHash = hashToken(token);
  const expiresAt = new Date(now.getTime() + TOKEN_LIFETIME_MS[purpose]);
  await executor
    .updateTable("account_tokens")
    .set({ used_at: now.toISOString() })
    .where("user_id", "=", userId)
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .execute();
  await executor
    .insertInto("account_tokens")
    .values({
      token_hash: tokenHash,
      purpose,
      user_id: userId,
      email,
      created_at: now.toISOString(),
      expires_at: expiresAt.toISOString(),
      used_at: null,
    })
    .execute();
  return { token, tokenHash, expiresAt };
}

/** The token's row if it works now (not used, not expired), else why not. Reads only: `consume` decides. */
export async function checkAccountToken(
  db: Db,
  purpose: AccountTokenPurpose,
  token: string,
  now: Date,
): Promise<{ row: AccountTokenTable } | { refused: TokenRefusal }> {
  const row = await db
    .selectFrom("account_tokens")
    .selectAll()
    .where("token_hash", "=", hashToken(token))
    .where("purpose", "=", purpose)
    .executeTakeFirst();
  if (!row) return { refused: "TOKEN_INVALID" };
  if (row.used_at !== null) return { refused: "TOKEN_USED" };
  if (row.expires_at <= now.toISOString()) return { refused: "TOKEN_EXPIRED" };
  return { row };
}

/**
 * Uses the token up, in `trx` (the transaction that does what it allows): one conditional UPDATE,
 * so of two uses at once (any instances) exactly one gets the row; the other is told why not.
 */
export async function consumeAccountToken(
  trx: Db,
  purpose: AccountTokenPurpose,
  token: string,
  now: Date,
): Promise<{ row: AccountTokenTable } | { refused: TokenRefusal }> {
  const row = await trx
    .updateTable("account_tokens")
    .set({ used_at: now.toISOString() })
    .where("token_hash", "=", hashToken(token))
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .where("expires_at", ">", now.toISOString())
    .returningAll()
    .executeTakeFirst();
  if (row) return { row };
  const why = await checkAccountToken(trx, purpose, token, now);
  // Still unused as this transaction sees it: another one is using it at this moment.
  return "refused" in why ? why : { refused: "TOKEN_USED" };
}
