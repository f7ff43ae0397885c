import type { Db } from "../db/database.server";
import { timeOrderedIdAfter } from "../db/ids.server";
import { createOutageLog } from "../db/outage-log.server";
import type { MessageTable } from "../db/tables";
import type { MessageContent } from "../../shared/message-content";
import type { MessageKind } from "../../shared/schema-enums.generated";
import { createMessageStream, type MessageStream } from "./message-stream";

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
  /** What the message says, as data: read, it is formatted for its reader (see message-text.server.ts). */
  content?: MessageContent | null;
  /** What makes this message unique; a second write with the same key is a no-op. */
  dedupeKey: string;
};

/**
 * How often the follower looks for messages other processes wrote: a message reaches every instance's subscribers
 * within this and one read.
 */
export const FOLLOW_INTERVAL_MS = 250;
/** Messages the follower reads at once (another process's engine pass may have written thousands). */
export const FOLLOW_PAGE_SIZE = 500;

/**
 * The bot's inbox: writing a message is idempotent on its dedupe key (a repeated
 * tick, a restart mid-tick or a second process never writes it twice), and every
 * message actually written is published to that user's live subscribers, in order.
 * Messages written by another process on the same database reach this process's
 * subscribers through `follow()`, which reads through `followDb` (reads no cached answer
 * depends on: see ReadRecorder.exempt).
 *
 * Message ids follow commit order across every process on the database: a write first
 * takes the `message_order` row (an UPDATE: on PostgreSQL a row lock held until the
 * transaction commits, on SQLite the database's one write lock), then makes its ids after
 * the last one handed out. So an id is never committed below one already visible, and
 * "the messages after id X" (the follower's cursor, a subscriber's `after` on reconnect)
 * misses nothing. The price: transactions that write messages commit one at a time.
 */
export function createInbox(db: Db, now: () => Date, { followDb = db }: { followDb?: Db } = {}) {
  const streams = new Map<string, Set<MessageStream>>();
  const publishedListeners = new Set<(row: MessageTable) => void>();
  /** The running follower (see follow), which delivers published rows too once it has its place. */
  let following: { lookNow: () => void } | null = null;

  function toRow(message: NewMessage, id: string): MessageTable {
    return {
      id,
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
      content: message.content ? JSON.stringify(message.content) : null,
    };
  }

  /** Inserts the messages (duplicates by key skipped) with ids after every id handed out so far; returns the new rows. */
  async function insertInOrder(messages: readonly NewMessage[], executor: Db): Promise<MessageTable[]> {
    const run = async (trx: Db) => {
      const { last_id } = await trx
        .updateTable("message_order")
        .set((eb) => ({ last_id: eb.ref("last_id") }))
        .where("name", "=", "messages")
        .returning("last_id")
        .executeTakeFirstOrThrow();
      let previous = last_id;
      const rows = messages.map((message) => toRow(message, (previous = timeOrderedIdAfter(previous))));
      const inserted = await trx
        .insertInto("messages")
        .values(rows)
        .onConflict((conflict) => conflict.column("dedupe_key").doNothing())
        .returning("id")
        .execute();
      await trx.updateTable("message_order").set({ last_id: previous }).where("name", "=", "messages").execute();
      const ids = new Set(inserted.map((row) => row.id));
      return rows.filter((row) => ids.has(row.id));
    };
    // Inside the caller's transaction, the order row stays taken until it commits.
    return executor.isTransaction ? run(executor) : db.transaction().execute(run);
  }

  return {
    /** Inserts the message unless its key exists; returns the new row, or null for a duplicate. */
    async write(message: NewMessage, executor: Db = db): Promise<MessageTable | null> {
      const [row] = await insertInOrder([message], executor);
      return row ?? null;
    },
    /** Many messages in one statement; returns those that were new (duplicates by key are skipped). */
    async writeMany(messages: NewMessage[], executor: Db = db): Promise<MessageTable[]> {
      if (messages.length === 0) return [];
      return insertInOrder(messages, executor);
    },
    /** Call after the transaction that wrote `row` has committed. */
    publish(row: MessageTable) {
      // With a follower, it delivers the row: another instance may have committed a message
      // before this one that the follower has not read yet, and a subscriber must not get this
      // one first (its `after` on reconnect would skip the other). The look it asks for reads
      // everything committed so far, in id order, this row included.
      if (following) following.lookNow();
      else for (const stream of streams.get(row.user_id) ?? []) stream.push(row);
      for (const listener of publishedListeners) listener(row);
    },
    /** Called for every published message (push delivery listens here). */
    onPublish(listener: (row: MessageTable) => void) {
      publishedListeners.add(listener);
    },
    /**
     * Reads, every `intervalMs`, the messages committed since the last look, by any process
     * on this database, and hands them to their users' subscribers here (each stream takes
     * a message once, so this process's own writes are not delivered twice). It follows
     * message ids, which follow commit order (see above), on SQLite and PostgreSQL alike.
     * Returns a function that stops it (and waits for a look under way).
     */
    follow(intervalMs = FOLLOW_INTERVAL_MS): (() => Promise<void>) & { ready: Promise<void> } {
      let cursor: string | null = null;
      let running: Promise<void> | null = null;
      const log = createOutageLog("[inbox]", "could not read new messages");
      // A look asked for while one runs comes after it: that one may have read before the asker's commit.
      let again = false;
      let stopped = false;
      const look = (): Promise<void> => {
        if (running) {
          again = true;
          return running;
        }
        return (running = readNew().finally(() => {
          running = null;
          if (again && !stopped) {
            again = false;
            void look();
          }
        }));
      };
      const readNew = async () => {
        try {
          const last = await followDb
            .selectFrom("messages")
            .select((eb) => eb.fn.max("id").as("id"))
            .executeTakeFirst();
          const upTo = last?.id ?? "";
          log.succeeded();
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
              .where("id", ">", cursor)
              .where("id", "<=", upTo)
              .$if(listeners.length <= FOLLOW_PAGE_SIZE, (query) => query.where("user_id", "in", listeners))
              .orderBy("id")
              .limit(FOLLOW_PAGE_SIZE)
              .execute();
            for (const row of page) for (const stream of streams.get(row.user_id) ?? []) stream.push(row);
            cursor = page.length < FOLLOW_PAGE_SIZE ? upTo : page.at(-1)!.id;
          }
        } catch (error) {
          log.failed(error);
        }
      };
      const first = look();
      const timer = setInterval(() => void look(), intervalMs);
      timer.unref();
      // Until the first look has placed the cursor, a published row is pushed as it is.
      void first.then(() => {
        if (!stopped) following = { lookNow: () => void look() };
      });
      const stop = async () => {
        stopped = true;
        following = null;
        clearInterval(timer);
        while (running) await running;
      };
      // `ready`: the first look is done, so what is committed from now on is delivered live.
      return Object.assign(stop, { ready: first });
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
