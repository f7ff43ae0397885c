import { randomBytes } from "node:crypto";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import { inject } from "vitest";

/** What the PostgreSQL project's global setup hands to its test files (see postgres-global-setup.ts). */
export type TestPostgres = {
  /** Superuser URL of the server's `postgres` database. */
  adminUrl: string;
  /** Every database this run creates starts with it (so a shared server can be cleaned up). */
  prefix: string;
  /** A database with every migration applied, copied for each test that does not ask for an empty one. */
  template: string;
};

declare module "vitest" {
  export interface ProvidedContext {
    testPostgres?: TestPostgres;
  }
}

/** The PostgreSQL server of this run, or undefined in the SQLite run. */
export function testPostgres(): TestPostgres | undefined {
  return inject("testPostgres");
}

/**
 * The run's PostgreSQL server, for tests under tests/integration/postgres/ (which only the
 * integration-postgres project includes): anywhere else it is a mistake, said at once.
 */
export function requireTestPostgres(): TestPostgres {
  const server = testPostgres();
  if (!server) throw new Error("tests/integration/postgres/ runs only in the integration-postgres project");
  return server;
}

/** A fresh migrated database of the run's PostgreSQL server (for tests under tests/integration/postgres/). */
export async function postgresTestDatabaseUrl(options: { empty?: boolean } = {}): Promise<string> {
  requireTestPostgres();
  return (await testDatabaseUrl(options))!;
}

/** The same server's URL for another database. */
export function databaseUrlFor(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Runs statements on the admin database over a connection of its own. */
export async function withAdmin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const created: string[] = [];
let counter = 0;

/** Unique across the run's worker processes and files (module state starts again in each file). */
const newName = (server: TestPostgres) =>
  `${server.prefix}${process.env.VITEST_POOL_ID ?? "0"}_${++counter}_${randomBytes(4).toString("hex")}`;

/**
 * The database a test's API should use. In the PostgreSQL run: a fresh database of its
 * own on the run's server, already migrated (copied from the template) unless `empty` is
 * asked for, and dropped when the test file ends. In the SQLite run: undefined, which
 * means SQLite in the test's data directory.
 */
export async function testDatabaseUrl(options: { empty?: boolean } = {}): Promise<string | undefined> {
  const server = testPostgres();
  if (!server) return undefined;
  const name = newName(server);
  await withAdmin(server.adminUrl, (client) =>
    client.query(options.empty ? `create database "${name}"` : `create database "${name}" template "${server.template}"`),
  );
  created.push(name);
  return databaseUrlFor(server.adminUrl, name);
}

/**
 * A new database of the run with everything `url`'s database holds (PostgreSQL copies a
 * database nobody is connected to: close what uses it first).
 */
export async function copyTestDatabase(url: string): Promise<string> {
  const server = testPostgres();
  if (!server) throw new Error("copyTestDatabase: not in the PostgreSQL run");
  const source = new URL(url).pathname.slice(1);
  const name = newName(server);
  await withAdmin(server.adminUrl, (client) => client.query(`create database "${name}" template "${source}"`));
  created.push(name);
  return databaseUrlFor(server.adminUrl, name);
}

/** Drops the databases this test file created (setup.ts calls it after each file). */
export async function dropTestDatabases(): Promise<void> {
  const server = testPostgres();
  const names = created.splice(0);
  if (!server || names.length === 0) return;
  await withAdmin(server.adminUrl, async (client) => {
    // FORCE: a connection a test left open must not keep its database alive.
    for (const name of names) await client.query(`drop database if exists "${name}" with (force)`);
  });
}

/**
 * What `openDatabase` should open for a test that opens the database itself: a fresh
 * PostgreSQL database of the run (migrated unless `empty`), or a SQLite file in `dir`.
 */
export async function testDatabaseTarget(dir: string, options: { empty?: boolean } = {}): Promise<string> {
  return (await testDatabaseUrl(options)) ?? path.join(dir, "weatherbot.sqlite");
}

/**
 * A plain Kysely on `target` (a PostgreSQL URL or a SQLite file): no plugins, no
 * migrations run, for tests that build a database as an older version left it.
 */
export function plainKysely<DB>(target: string): Kysely<DB> {
  return new Kysely<DB>({
    dialect: /^postgres(?:ql)?:\/\//.test(target)
      ? new PostgresDialect({ pool: new pg.Pool({ connectionString: target, max: 2 }) })
      : new SqliteDialect({ database: new SQLite(target) }),
  });
}
