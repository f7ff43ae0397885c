import { Kysely, Migrator, type MigrationProvider } from "kysely";
import type { ChangeTracker } from "./change-tracker.server";
import { migrations } from "./migrations.server";
import { isPostgresUrl, openPostgres } from "./postgres.server";
import { openSqlite, sqlitePath } from "./sqlite.server";
import type { Database } from "./tables";

export type Db = Kysely<Database>;

/** Which database a Db runs on: SQLite (embedded, the default) or PostgreSQL (several instances). */
export type DatabaseDialect = "sqlite" | "postgres";

export { isPostgresUrl, sqlitePath };

/** What `openDatabase` opens for DATABASE_URL: the PostgreSQL URL itself, else the SQLite file. */
export function databaseTarget(dataDir: string, databaseUrl?: string): string {
  return isPostgresUrl(databaseUrl) ? databaseUrl : sqlitePath(dataDir, databaseUrl);
}

export type DatabaseOptions = {
  /** Hears every statement as it is about to run (tests count what a request costs). */
  onStatement?: (sql: string) => void;
  /** PostgreSQL: how many connections the pool keeps at most (DATABASE_POOL_SIZE). */
  poolSize?: number;
};

/**
 * Opens the database and brings its schema up to date: a `postgres://` or `postgresql://`
 * URL opens PostgreSQL, anything else is a SQLite file (created if needed). `changes` tells
 * readers which tables were written since they read, and logs what they read (see
 * ChangeTracker).
 */
export async function openDatabase(
  target: string,
  options: DatabaseOptions = {},
): Promise<{ db: Db; changes: ChangeTracker; dialect: DatabaseDialect }> {
  const dialect: DatabaseDialect = isPostgresUrl(target) ? "postgres" : "sqlite";
  const opened: ReturnType<typeof openSqlite> & { hearWrites?: () => Promise<void> } =
    dialect === "postgres" ? openPostgres(target, options) : openSqlite(sqlitePath("", target), options);
  try {
    await migrate(opened.db);
    opened.changes.setCascades(await opened.readCascades());
    await opened.hearWrites?.();
  } catch (error) {
    await opened.db.destroy();
    throw error;
  }
  return { db: opened.db, changes: opened.changes, dialect };
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrate(db: Db): Promise<void> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((result) => result.status === "Error");
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ""} failed: ${String(error)}`);
  }
}
