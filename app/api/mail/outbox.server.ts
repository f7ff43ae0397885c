import type { Expression, ExpressionBuilder, SqlBool } from "kysely";
import type { Db, DatabaseDialect } from "../db/database.server";
import { timeOrderedId } from "../db/ids.server";
import type { Database, MailOutboxTable } from "../db/tables";
import type { Sealer } from "./sealed.server";
import type { OutgoingMail } from "./smtp.server";

export type MailKind = "PASSWORD_RESET" | "EMAIL_CHANGE" | "BRIEFING";

/**
 * A mail to queue: what it says, what makes it unique, whose it is (deleting the account removes
 * it) and how long it is worth sending (the wall clock's milliseconds).
 */
export type QueuedMail = { kind: MailKind; dedupeKey: string; userId: string; validForMs: number; mail: Omit<OutgoingMail, "messageId"> };

/** A row claimed for sending: the mail opened, or null when it no longer opens (another secret). */
export type ClaimedMail = { row: MailOutboxTable; mail: Omit<OutgoingMail, "messageId"> | null };

export type RetryPolicy = {
  /** The wait before the second attempt; each further one waits twice as long, up to `maxMs`. */
  baseMs: number;
  maxMs: number;
  /** Attempts in all before a mail is given up. */
  attempts: number;
};

/** About 17 hours of attempts: 30 s, 1 min, 2 min, … capped at 2 hours. */
export const DEFAULT_RETRY: RetryPolicy = { baseMs: 30_000, maxMs: 2 * 3_600_000, attempts: 14 };

/**
 * The mail outbox (decision 025): a row per mail, queued in the transaction that makes it due
 * (a briefing's message, a reset token), so it exists exactly when that commits; sent by whichever
 * instance claims it. Claiming is one conditional UPDATE … RETURNING, as the engine claims its
 * shards (engine-shards.server.ts): on PostgreSQL the candidates are read FOR UPDATE SKIP LOCKED, so
 * racing instances take different rows; SQLite has one writer. A claim is a lease: an instance killed
 * while it holds one leaves the row to be claimed again once the lease runs out. Times are the wall
 * clock (leases must expire in real time whatever clock the API's tests give it).
 */
export function createOutbox({
  db,
  dialect,
  sealer,
  instanceId,
  leaseMs,
  retry = DEFAULT_RETRY,
  clock = Date.now,
}: {
  db: Db;
  dialect: DatabaseDialect;
  sealer: Sealer;
  instanceId: string;
  /** Longer than a send can take (the SMTP timeouts), so no live sender loses its row. */
  leaseMs: number;
  retry?: RetryPolicy;
  clock?: () => number;
}) {
  const at = (ms: number) => new Date(ms).toISOString();
  const claimable = (nowIso: string) => (eb: ExpressionBuilder<Database, "mail_outbox">) =>
    eb.and([
      eb("state", "=", "PENDING"),
      eb("next_attempt_at", "<=", nowIso),
      eb.or([eb("lease_until", "is", null), eb("lease_until", "<", nowIso)]),
    ]) as Expression<SqlBool>;
  /** Writes to a row this instance still holds (a lease taken over by another instance is theirs now). */
  const mine = (id: string) =>
    db.updateTable("mail_outbox").where("id", "=", id).where("lease_owner", "=", instanceId).where("state", "=", "PENDING");

  return {
    /** Queues a mail in `executor` (the caller's transaction); false when its key was queued before (nothing written). */
    async enqueue(executor: Db, queued: QueuedMail): Promise<boolean> {
      const now = clock();
      const inserted = await executor
        .insertInto("mail_outbox")
        .values({
          id: timeOrderedId(now),
          dedupe_key: queued.dedupeKey,
          user_id: queued.userId,
          kind: queued.kind,
          payload: sealer.seal(queued.mail),
          state: "PENDING",
          created_at: at(now),
          expires_at: at(now + queued.validForMs),
          next_attempt_at: at(now),
          attempts: 0,
          lease_owner: null,
          lease_until: null,
          sent_at: null,
          last_error: null,
        })
        .onConflict((conflict) => conflict.column("dedupe_key").doNothing())
        .returning("id")
        .execute();
      return inserted.length > 0;
    },

    /**
     * Takes the mail due longest that nobody holds (or whose holder's lease ran out), counting an
     * attempt; null when none is due. One at a time, so the lease covers one bounded send. The
     * candidate is a scalar subquery, which PostgreSQL evaluates once: under `IN (…)` it may run
     * the subquery again per row, and with SKIP LOCKED each run returns another row, so a LIMIT
     * there does not bound what is claimed.
     */
    async claimOne(): Promise<ClaimedMail | null> {
      const now = clock();
      const nowIso = at(now);
      const row = await db
        .updateTable("mail_outbox")
        .set((eb) => ({ lease_owner: instanceId, lease_until: at(now + leaseMs), attempts: eb("attempts", "+", 1) }))
        .where("id", "=", (eb) =>
          eb
            .selectFrom("mail_outbox as candidate")
            .select("candidate.id")
            .where((inner) =>
              inner.and([
                inner("candidate.state", "=", "PENDING"),
                inner("candidate.next_attempt_at", "<=", nowIso),
                inner.or([inner("candidate.lease_until", "is", null), inner("candidate.lease_until", "<", nowIso)]),
              ]),
            )
            .orderBy("candidate.next_attempt_at")
            .limit(1)
            .$if(dialect === "postgres", (query) => query.forUpdate().skipLocked()),
        )
        // Checked again on the row itself: on PostgreSQL another claim may have changed it since the list was read.
        .where(claimable(nowIso))
        .returningAll()
        .executeTakeFirst();
      if (!row) return null;
      try {
        return { row, mail: sealer.open<Omit<OutgoingMail, "messageId">>(row.payload) };
      } catch {
        return { row, mail: null };
      }
    },

    /** The SMTP server took it: never sent again. Its words are dropped (a link in it stays live until used). */
    async sent(id: string): Promise<boolean> {
      const result = await mine(id)
        .set({ state: "SENT", sent_at: at(clock()), payload: "", lease_until: null })
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Refused for now: tried again after the back-off, or given up once it has had its attempts or is past its time. */
    async failed(row: MailOutboxTable, error: string, temporary: boolean): Promise<{ retryInMs: number } | "given up"> {
      const now = clock();
      const wait = Math.min(retry.maxMs, retry.baseMs * 2 ** Math.max(0, row.attempts - 1));
      const giveUp = !temporary || row.attempts >= retry.attempts || now + wait > Date.parse(row.expires_at);
      await mine(row.id)
        .set(
          giveUp
            ? { state: "FAILED", payload: "", lease_until: null, last_error: error }
            : { next_attempt_at: at(now + wait), lease_until: null, last_error: error },
        )
        .execute();
      return giveUp ? "given up" : { retryInMs: wait };
    },

    /** Rows long done (sent or given up) are deleted: the mail's own row (a message, a token) keeps what happened. */
    async prune(olderThanMs: number): Promise<void> {
      await db
        .deleteFrom("mail_outbox")
        .where("state", "in", ["SENT", "FAILED"])
        .where("created_at", "<", at(clock() - olderThanMs))
        .execute();
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
