import { mkdirSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, type SqliteDatabase } from "kysely";
import { LRUCache } from "lru-cache";
import { ChangeTracker, type CascadeMap } from "./change-tracker.server";
import { QueuedSqliteDialect } from "./sqlite-dialect.server";
import type { Database } from "./tables";

/** Where SQLite keeps the database: `sqlite:<path>` from DATABASE_URL, else DATA_DIR/weatherbot.sqlite. */
export function sqlitePath(dataDir: string, databaseUrl?: string): string {
  if (databaseUrl) return databaseUrl.replace(/^sqlite:(\/\/)?/, "");
  return path.join(dataDir, "weatherbot.sqlite");
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * The database as Kysely sees it, with its prepared statements in an LRU cache: Kysely
 * prepares every query anew, and preparing cost as much as running the small queries a
 * request makes. Statements are never shared while running: better-sqlite3 runs each one to
 * the end synchronously, and nothing here streams rows. Kysely prepares each statement right
 * before running it, so `changes` hears of every write as it happens.
 */
function withStatementCache(sqlite: SQLite.Database, changes: ChangeTracker, onStatement?: (sql: string) => void): SqliteDatabase {
  const statements = new LRUCache<string, SQLite.Statement>({ max: STATEMENT_CACHE_SIZE });
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      changes.recordStatement(sql);
      onStatement?.(sql);
      let statement = statements.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

/** The foreign-key actions that write to the referencing table. */
const ACTS = /^(?:CASCADE|SET NULL|SET DEFAULT)$/;

/** For each table, the tables whose foreign keys act on its deletes or updates. */
function readCascades(sqlite: SQLite.Database): CascadeMap {
  const cascades = new Map<string, string[]>();
  const tables = sqlite.prepare("select name from sqlite_schema where type = 'table'").pluck().all() as string[];
  for (const table of tables) {
    const keys = sqlite.pragma(`foreign_key_list("${table}")`) as Array<{ table: string; on_update: string; on_delete: string }>;
    for (const key of keys) {
      if (!ACTS.test(key.on_delete) && !ACTS.test(key.on_update)) continue;
      cascades.set(key.table, [...(cascades.get(key.table) ?? []), table]);
    }
  }
  return cascades;
}

/**
 * `read`, asked at most once per turn of the event loop: what it gave is cached until the turn ends. For
 * `PRAGMA data_version`, which takes the file's read lock each time (about a tenth of an API request's CPU when
 * every read cache asked it): a commit by another process during a turn is then seen from the next turn on, as if
 * it had landed a moment later, which any commit racing a request may do anyway.
 */
export function oncePerTurn<T>(read: () => T): () => T {
  let cached: { value: T } | null = null;
  return () => {
    if (cached) return cached.value;
    cached = { value: read() };
    setImmediate(() => {
      cached = null;
    });
    return cached.value;
  };
}

/**
 * SQLite in one file (or `:memory:`), through the queued dialect: one connection, waiters
 * in order. The SQLite handle stays in this module: every statement outside it goes through
 * Kysely, where reads are logged.
 */
export function openSqlite(
  file: string,
  options: { onStatement?: (sql: string) => void },
): { db: Kysely<Database>; changes: ChangeTracker; readCascades: () => Promise<CascadeMap> } {
  if (file !== ":memory:") mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  // WAL: readers never wait for the writer; busy_timeout: a second process waits for the lock instead of failing.
  sqlite.pragma("journal_mode = WAL");
  // In WAL mode NORMAL never corrupts the database and survives a process crash; only a
  // power cut can lose the last commits. It makes each commit several times cheaper.
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("foreign_keys = ON");
  // Changes only when another connection commits: the tracker's view of other processes.
  const dataVersion = sqlite.prepare("pragma data_version").pluck();
  const changes = new ChangeTracker(oncePerTurn(() => dataVersion.get() as number));
  const db = new Kysely<Database>({
    dialect: new QueuedSqliteDialect({ database: withStatementCache(sqlite, changes, options.onStatement) }),
    // Reads are logged from the queries (cached answers depend on them); writes from the SQL the connection prepares.
    plugins: [changes.reads.plugin],
  });
  return { db, changes, readCascades: async () => readCascades(sqlite) };
}
