/**
 * The two databases the benchmark compares: SQLite in a data directory (the embedded
 * default) and PostgreSQL, on a server of the benchmark's own (durable settings, see
 * startPostgresServer), a fresh database for each use.
 */
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { startPostgresServer, type PostgresServer } from "../../tests/support/postgres-server";

export type BenchDatabaseKind = "SQLite" | "PostgreSQL";

/** Where one benchmark's data lives: the environment an app server needs, and the same for createApi. */
export type BenchStore = {
  kind: BenchDatabaseKind;
  dataDir: string;
  databaseUrl?: string;
  env: Record<string, string>;
  remove: () => Promise<void>;
};

let counter = 0;

export type BenchDatabases = {
  fresh(kind: BenchDatabaseKind): Promise<BenchStore>;
  /** A new store holding a copy of `store`'s data (same ids): runs compared message for message start from one seed. */
  copy(store: BenchStore): Promise<BenchStore>;
  stop(): Promise<void>;
};

/**
 * `statements`: PostgreSQL keeps statistics per statement (pg_stat_statements), for a bench to print its costliest.
 * `settings`: more server settings (`name=value`), as a deployment of the size benched would have them.
 */
export async function startBenchDatabases({
  statements = false,
  settings = [],
}: { statements?: boolean; settings?: string[] } = {}): Promise<BenchDatabases> {
  let server: PostgresServer | null = null;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: server!.adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  return {
    fresh: (kind) => create(kind),
    copy: (store) => create(store.kind, store),
    async stop() {
      await server?.stop();
    },
  };

  async function create(kind: BenchDatabaseKind, from?: BenchStore): Promise<BenchStore> {
    const dataDir = await mkdtemp(path.join(tmpdir(), "weatherbot-bench-"));
    if (from) await cp(from.dataDir, dataDir, { recursive: true });
    if (kind === "SQLite") {
      return { kind, dataDir, env: { DATA_DIR: dataDir }, remove: () => rm(dataDir, { recursive: true, force: true }) };
    }
    server ??= await startPostgresServer({
      durable: true,
      settings: [...(statements ? ["shared_preload_libraries=pg_stat_statements", "pg_stat_statements.track=all"] : []), ...settings],
    });
    const name = `bench_${process.pid}_${++counter}`;
    await admin(
      from?.databaseUrl
        ? `create database "${name}" template "${new URL(from.databaseUrl).pathname.slice(1)}"`
        : `create database "${name}"`,
    );
    const url = new URL(server.adminUrl);
    url.pathname = `/${name}`;
    const databaseUrl = url.toString();
    return {
      kind,
      dataDir,
      databaseUrl,
      env: { DATA_DIR: dataDir, DATABASE_URL: databaseUrl },
      remove: async () => {
        await rm(dataDir, { recursive: true, force: true });
        await admin(`drop database if exists "${name}" with (force)`);
      },
    };
  }
}
