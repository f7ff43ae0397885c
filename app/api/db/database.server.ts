import { mkdirSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, type MigrationProvider, type SqliteDatabase } from "kysely";
import { migrations } from "./migrations.server";
import { QueuedSqliteDialect } from "./sqlite-dialect.server";
import type { Database } from "./tables";

export type Db = Kysely<Database>;

/** Where SQLite keeps the database: `sqlite:<path>` from DATABASE_URL, else DATA_DIR/weatherbot.sqlite. */
export function sqlitePath(dataDir: string, databaseUrl?: string): string {
  if (databaseUrl) return databaseUrl.replace(/^sqlite:(\/\/)?/, "");
  return path.join(dataDir, "weatherbot.sqlite");
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * The database as Kysely sees it, with its prepared statements kept (least recently used
 * go first): Kysely prepares every query anew, and preparing cost as much as running the
 * small queries a request makes. Statements are never shared while running: better-sqlite3
 * runs each one to the end synchronously, and nothing here streams rows.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (statement) statements.delete(sql);
      else statement = sqlite.prepare(sql);
      statements.set(sql, statement);
      if (statements.size > STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      return statement;
    },
  };
}

/** Opens (creating if needed) the database and brings its schema up to date. */
export async function openDatabase(file: string): Promise<Db> {
  if (file !== ":memory:") mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  // WAL: readers never wait for the writer; busy_timeout: a second process waits for the lock instead of failing.
  sqlite.pragma("journal_mode = WAL");
  // In WAL mode NORMAL never corrupts the database and survives a process crash; only a
  // power cut can lose the last commits. It makes each commit several times cheaper.
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("foreign_keys = ON");
  const db = new Kysely<Database>({ dialect: new QueuedSqliteDialect({ database: withStatementCache(sqlite) }) });
  await migrate(db);
  return db;
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrate(db: Db): Promise<void> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((result) => result.status === "Error");
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ""} failed: ${String(error)}`);
  }
}
