import pg from "pg";
import { sql, type Kysely } from "kysely";

/**
 * PostgreSQL only: how each instance hears which tables other instances wrote, so that a
 * value cached in memory is never served after another instance changed what it came from.
 *
 * Every table carries a statement trigger that sends its name on one NOTIFY channel.
 * PostgreSQL delivers a notification only once its transaction commits, and a listening
 * session is sent every notification already committed before it answers its next query:
 * so one round trip on the listening connection, started after a request arrived, has
 * brought in every write that committed before it (`sync`). Foreign-key cascades run as
 * statements on the referencing tables and announce those too.
 */

const CHANNEL = "weatherbot_writes";
const TRIGGER = "weatherbot_announce_write";

/** Tables that hold no data a reader caches (the migrator's own). */
const UNANNOUNCED = /^kysely_/;

/**
 * Puts the trigger on every table of the current schema. Run after every migration: a
 * table a later migration adds gets it the next time an instance starts. Instances
 * starting together take turns (CREATE OR REPLACE on one trigger at the same time fails).
 */
export async function announceWrites(db: Kysely<unknown>): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${TRIGGER}))`.execute(tx);
    await sql
      .raw(
        `create or replace function ${TRIGGER}() returns trigger language plpgsql as $$
         begin perform pg_notify('${CHANNEL}', TG_TABLE_NAME); return null; end $$`,
      )
      .execute(tx);
    const { rows } = await sql<{ name: string }>`
      select tablename as name from pg_tables where schemaname = current_schema() order by tablename
    `.execute(tx);
    for (const { name } of rows) {
      if (UNANNOUNCED.test(name)) continue;
      await sql`
        create or replace trigger ${sql.raw(TRIGGER)} after insert or update or delete or truncate on ${sql.table(name)}
        for each statement execute function ${sql.raw(TRIGGER)}()
      `.execute(tx);
    }
  });
}

export type WriteAnnouncements = {
  /**
   * Resolves once every write committed before the call has been heard: true then; false
   * while the listening connection is down (nothing cached may be trusted until it is back).
   */
  sync(): Promise<boolean>;
  close(): Promise<void>;
};

type Listeners = {
  /** A write to `table` committed (on any instance, this one included). */
  onWrite(table: string): void;
  /** Writes may have gone unheard (the connection dropped): everything may have changed. */
  onGap(): void;
};

const RECONNECT_MS = [100, 250, 500, 1000, 2000];

/** The listening connection's name in pg_stat_activity. */
export const LISTENER_NAME = "weatherbot-write-announcements";

/**
 * Listens on its own connection (a pooled one would hand its notifications to whoever holds
 * it next). Reconnects when the connection drops, reporting the gap; `sync` round trips are
 * shared by every caller that arrived before the trip was sent.
 */
export async function listenForWrites(
  connectionString: string,
  listeners: Listeners,
  /**
   * A connection attempt, or a `sync` round trip, that takes longer fails (and the connection
   * is made again): a silent host would otherwise stall reconnecting, or every request.
   */
  connectTimeoutMs = 5_000,
): Promise<WriteAnnouncements> {
  let client: pg.Client | null = null;
  let closed = false;
  let attempt = 0;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;

  async function connect(): Promise<void> {
    const next = new pg.Client({
      connectionString,
      application_name: LISTENER_NAME,
      connectionTimeoutMillis: connectTimeoutMs,
      keepAlive: true,
    });
    next.on("notification", (message) => {
      if (message.channel === CHANNEL && message.payload) listeners.onWrite(message.payload);
    });
    next.on("error", () => lost(next));
    next.on("end", () => lost(next));
    await next.connect();
    await next.query(`listen ${CHANNEL}`);
    if (closed) {
      await next.end();
      return;
    }
    client = next;
    attempt = 0;
    // Whatever committed while nobody listened is unknown.
    listeners.onGap();
  }

  function lost(which: pg.Client): void {
    if (client !== which) return;
    client = null;
    listeners.onGap();
    scheduleReconnect();
  }

  function scheduleReconnect(): void {
    if (closed || reconnectTimer) return;
    const delay = RECONNECT_MS[Math.min(attempt++, RECONNECT_MS.length - 1)]!;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      connect().catch(() => scheduleReconnect());
    }, delay);
    reconnectTimer.unref();
  }

  let running: Promise<boolean> | null = null;
  let waiting: Promise<boolean> | null = null;

  function roundTrip(): Promise<boolean> {
    const current = client;
    if (!current) return Promise.resolve(false);
    // Every request waits for this trip: on a connection gone silent (a network cut sends no
    // reset) it would wait forever, so a trip that takes too long counts the connection lost.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tooLong = new Promise<false>((resolve) => {
      timer = setTimeout(() => {
        lost(current);
        (current as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
        resolve(false);
      }, connectTimeoutMs);
      timer.unref();
    });
    const answered = current.query("select 1").then(
      () => client === current,
      () => false,
    );
    running = Promise.race([answered, tooLong]);
    void running.finally(() => {
      clearTimeout(timer);
      running = null;
    });
    return running;
  }

  await connect();
  return {
    sync() {
      // A trip already sent may have left before this caller's writes were committed: wait for the next.
      if (waiting) return waiting;
      if (!running) return roundTrip();
      waiting = running.then(() => {
        waiting = null;
        return roundTrip();
      });
      return waiting;
    },
    async close() {
      closed = true;
      clearTimeout(reconnectTimer);
      const current = client;
      client = null;
      await current?.end().catch(() => {});
    },
  };
}
