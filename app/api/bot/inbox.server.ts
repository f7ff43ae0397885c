import { sql } from "kysely";
import type { Db } from "../db/database.server";
import { timeOrderedId } from "../db/ids.server";
import type { MessageTable } from "../db/tables";
import { createMessageStream, type MessageStream } from "./message-stream";

export type MessageKind = "BRIEFING" | "ALERT" | "ALL_CLEAR" | "SYSTEM";

export type NewMessage = {
  userId: string;
  kind: MessageKind;
  title: string;
  body: string;
  urgent?: boolean;
  placeId?: string | null;
  briefingId?: string | null;
  alertRuleId?: string | null;
  match?: unknown;
  /** What makes this message unique; a second write with the same key is a no-op. */
  dedupeKey: string;
};

/** How often the follower looks for messages other processes wrote. */
export const FOLLOW_INTERVAL_MS = 1000;
/** Messages the follower reads at once (another process's engine pass may have written thousands). */
export const FOLLOW_PAGE_SIZE = 500;

/**
 * The bot's inbox: writing a message is idempotent on its dedupe key (a repeated
 * tick, a restart mid-tick or a second process never writes it twice), and every
 * message actually written is published to that user's live subscribers, in order.
 * Messages written by another process on the same database reach this process's
 * subscribers through `follow()`, which reads through `followDb` (reads no kept answer
 * depends on: see ReadRecorder.exempt).
 */
export function createInbox(db: Db, now: () => Date, { followDb = db }: { followDb?: Db } = {}) {
  const streams = new Map<string, Set<MessageStream>>();
  const publishedListeners = new Set<(row: MessageTable) => void>();

  function toRow(message: NewMessage): MessageTable {
    // Time-ordered ids keep messages written in the same millisecond in write order.
    return {
      id: timeOrderedId(),
      user_id: message.userId,
      kind: message.kind,
      title: message.title,
      body: message.body,
      created_at: now().toISOString(),
      read_at: null,
      urgent: message.urgent ? 1 : 0,
      place_id: message.placeId ?? null,
      briefing_id: message.briefingId ?? null,
      dedupe_key: message.dedupeKey,
      alert_rule_id: message.alertRuleId ?? null,
      match_json: message.match === undefined ? null : JSON.stringify(message.match),
    };
  }

  return {
    /** Inserts the message unless its key exists; returns the new row, or null for a duplicate. */
    async write(message: NewMessage, executor: Db = db): Promise<MessageTable | null> {
      const row = toRow(message);
      const result = await executor
        .insertInto("messages")
        .values(row)
        .onConflict((conflict) => conflict.column("dedupe_key").doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0 ? row : null;
    },
    /** Many messages in one statement; returns those that were new (duplicates by key are skipped). */
    async writeMany(messages: NewMessage[], executor: Db = db): Promise<MessageTable[]> {
      if (messages.length === 0) return [];
      const rows = messages.map(toRow);
      const inserted = await executor
        .insertInto("messages")
        .values(rows)
        .onConflict((conflict) => conflict.column("dedupe_key").doNothing())
        .returning("id")
        .execute();
      const ids = new Set(inserted.map((row) => row.id));
      return rows.filter((row) => ids.has(row.id));
    },
    /** Call after the transaction that wrote `row` has committed. */
    publish(row: MessageTable) {
      for (const stream of streams.get(row.user_id) ?? []) stream.push(row);
      for (const listener of publishedListeners) listener(row);
    },
    /** Called for every published message (push delivery listens here). */
    onPublish(listener: (row: MessageTable) => void) {
      publishedListeners.add(listener);
    },
    /**
     * Reads, every `intervalMs`, the messages committed since the last look, by any process
     * on this database, and hands them to their users' subscribers here (each stream takes
     * a message once, so this process's own writes are not delivered twice). SQLite's
     * rowid follows commit order, one writer at a time; on PostgreSQL this would be
     * LISTEN/NOTIFY. Returns a function that stops it (and waits for a look under way).
     */
    follow(intervalMs = FOLLOW_INTERVAL_MS): () => Promise<void> {
      let cursor: number | null = null;
      let running: Promise<void> | null = null;
      const seq = sql<number>`rowid`;
      const look = () => (running ??= readNew().finally(() => (running = null)));
      const readNew = async () => {
        try {
          const last = await followDb
            .selectFrom("messages")
            .select(sql<number | null>`max(rowid)`.as("seq"))
            .executeTakeFirst();
          const upTo = last?.seq ?? 0;
          // Nobody listening here: only the place is kept (a subscriber's own catch-up read
          // covers what came before it subscribed).
          if (cursor === null || streams.size === 0) {
            cursor = upTo;
            return;
          }
          // A page at a time, and the place moves only past what was handed over: a read that
          // fails is tried again at the next look.
          while (cursor < upTo) {
            const listeners = [...streams.keys()];
            const page = await followDb
              .selectFrom("messages")
              .selectAll()
              .select(seq.as("seq"))
              .where(seq, ">", cursor)
              .where(seq, "<=", upTo)
              .$if(listeners.length <= FOLLOW_PAGE_SIZE, (query) => query.where("user_id", "in", listeners))
              .orderBy(seq)
              .limit(FOLLOW_PAGE_SIZE)
              .execute();
            for (const { seq: _seq, ...row } of page) for (const stream of streams.get(row.user_id) ?? []) stream.push(row);
            cursor = page.length < FOLLOW_PAGE_SIZE ? upTo : page.at(-1)!.seq;
          }
        } catch (error) {
          console.error("[inbox] could not read new messages:", error);
        }
      };
      void look();
      const timer = setInterval(() => void look(), intervalMs);
      timer.unref();
      return async () => {
        clearInterval(timer);
        await running;
      };
    },
    /**
     * The user's messages from now on, buffered from the moment of this call (before any
     * catch-up read), so nothing written in between is lost.
     */
    subscribe(userId: string, after: string): MessageStream {
      const forUser = streams.get(userId) ?? new Set<MessageStream>();
      streams.set(userId, forUser);
      const stream = createMessageStream(() => {
        forUser.delete(stream);
        if (forUser.size === 0) streams.delete(userId);
      }, after);
      forUser.add(stream);
      return stream;
    },
    /** Messages written after the one with id `afterId` (ids are time-ordered), oldest first. */
    async since(userId: string, afterId: string, limit: number): Promise<MessageTable[]> {
      return db
        .selectFrom("messages")
        .selectAll()
        .where("user_id", "=", userId)
        .where("id", ">", afterId)
        .orderBy("id", "asc")
        .limit(limit)
        .execute();
    },
  };
}

export type Inbox = ReturnType<typeof createInbox>;
