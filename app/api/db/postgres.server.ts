import { Kysely, PostgresDialect, sql, type PostgresPool, type PostgresPoolClient } from "kysely";
import pg from "pg";
import { ChangeTracker, type CascadeMap } from "./change-tracker.server";
import { createOutageLog } from "./outage-log.server";
import type { Database } from "./tables";
import { announceWrites, listenForWrites, type WriteAnnouncements } from "./write-announcements.server";

/** `postgres://` and `postgresql://` URLs name a PostgreSQL database; anything else is SQLite. */
export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(?:ql)?:\/\//i.test(url);
}

export const DEFAULT_POOL_SIZE = 10;

/**
 * How long a query waits for a connection (a free one in the pool, or a new one to be
 * opened) before it fails as "database unavailable". pg waits forever by default: behind a
 * network cut or a hung server every request would hang. Long enough for a busy pool on a
 * loaded machine; a request that waits longer is better answered 503 (retryable) anyway.
 */
export const CONNECT_TIMEOUT_MS = 5_000;

/** OIDs of the types `pg` leaves as strings that the code reads as numbers. */
const INT8 = 20;
const NUMERIC = 1700;

/**
 * `count(*)`, `sum` and `max` of integers come back as `int8` (or `numeric`), which `pg`
 * returns as strings for fear of precision; every such figure here is far below 2^53, and
 * SQLite gives numbers, so both give numbers.
 */
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === INT8 || oid === NUMERIC
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * The pool as Kysely sees it, with every statement passed to `observe` right before it is
 * sent, as SQLite's statement cache does: the change tracker learns of writes from it.
 * Each pooled client keeps one wrapper, so Kysely's per-client connection is reused.
 */
function observedPool(pool: pg.Pool, observe: (sql: string) => void): PostgresPool {
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) {
        wrapper = {
          query: ((text: unknown, parameters?: unknown[]) => {
            if (typeof text === "string") observe(text);
            return client.query(text as string, parameters);
          }) as unknown as PostgresPoolClient["query"],
          release: () => client.release(),
        };
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}

/**
 * For each table, the tables whose foreign keys act on its deletes or updates (cascade,
 * set null, set default), from PostgreSQL's catalog.
 */
async function readCascades(db: Kysely<Database>): Promise<CascadeMap> {
  const { rows } = await sql<{ parent: string; child: string }>`
    select parent.relname as parent, child.relname as child
    from pg_constraint c
    join pg_class parent on parent.oid = c.confrelid
    join pg_class child on child.oid = c.conrelid
    where c.contype = 'f' and c.connamespace = current_schema()::regnamespace
      and (c.confdeltype in ('c', 'n', 'd') or c.confupdtype in ('c', 'n', 'd'))
    order by parent.relname, child.relname
  `.execute(db);
  const cascades = new Map<string, string[]>();
  for (const { parent, child } of rows) cascades.set(parent, [...(cascades.get(parent) ?? []), child]);
  return cascades;
}

/**
 * PostgreSQL through Kysely's dialect over a `pg.Pool` of `poolSize` connections. A pooled
 * connection that fails while idle (the server restarted, a network cut) is dropped by the
 * pool and reported; it must not end the process.
 */
export function openPostgres(
  url: string,
  options: { poolSize?: number; onStatement?: (sql: string) => void },
): { db: Kysely<Database>; changes: ChangeTracker; readCascades: () => Promise<CascadeMap>; hearWrites: () => Promise<void> } {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? DEFAULT_POOL_SIZE,
    types,
    application_name: "weatherbot",
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // A peer gone without a word (a network cut) is noticed by the kernel, not never.
    keepAlive: true,
  });
  // Once per outage: a restart ends every idle connection at once.
  const idleLog = createOutageLog("[db]", "an idle PostgreSQL connection failed");
  pool.on("error", idleLog.failed);
  pool.on("connect", idleLog.succeeded);
  // Other instances' commits arrive as announcements (hearWrites), not through a version to compare.
  const changes = new ChangeTracker(() => 0);
  let announcements: WriteAnnouncements | null = null;
  const observed = observedPool(pool, (text) => {
    changes.recordStatement(text);
    options.onStatement?.(text);
  });
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({
      pool: {
        connect: () => observed.connect(),
        // Destroying the Kysely also ends the listening connection.
        end: async () => {
          await announcements?.close();
          await observed.end();
        },
      },
    }),
    plugins: [changes.reads.plugin],
  });
  /** After migrating: every table announces its writes, and this instance listens to them. */
  async function hearWrites(): Promise<void> {
    await announceWrites(db as unknown as Kysely<unknown>);
    announcements = await listenForWrites(
      url,
      { onWrite: (table) => changes.recordWrite(table), onGap: () => changes.recordUnknownWrite() },
      CONNECT_TIMEOUT_MS,
    );
    changes.setSync(() => announcements!.sync());
  }
  return { db, changes, readCascades: () => readCascades(db), hearWrites };
}
