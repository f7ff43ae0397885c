import { sql } from "kysely";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openDatabase, type Db } from "~/api/db/database.server";
import { migrations } from "~/api/db/migrations.server";
import { LISTENER_NAME } from "~/api/db/write-announcements.server";
import { postgresTestDatabaseUrl, requireTestPostgres, withAdmin } from "../../support/test-database";

/*
 * What only PostgreSQL has: a connection that hears other instances (SQLite reads their
 * commits from the file: there is none to lose), migrations raced by several instances at
 * once, and a pool whose connections the server may end. What both databases must do
 * alike is in ../databases.test.ts.
 */
const open: Db[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((db) => db.destroy()));
});

const target = (options: { empty?: boolean } = {}) => postgresTestDatabaseUrl(options);

async function opened(where: string, statements?: string[]) {
  const database = await openDatabase(where, { onStatement: statements && ((text) => statements.push(text)) });
  open.push(database.db);
  return database;
}

const created = "2026-06-01T00:00:00.000Z";

describe("PostgreSQL", () => {
  it("trusts nothing cached while it cannot hear the other instances, and hears them again after", async () => {
    const where = await target();
    const a = await opened(where);
    const b = await opened(where);
    await b.changes.sync();
    const before = b.changes.mark();
    // The server drops B's listening connection (as a restart or a network cut would).
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${LISTENER_NAME}`.execute(a.db);
    await b.changes.sync();
    expect(b.changes.unchangedSince(before, ["forecast_cache"])).toBe(false);
    // Back: a later mark holds until another instance writes what it covers.
    let mark = b.changes.mark();
    await vi.waitFor(async () => {
      mark = b.changes.mark();
      await b.changes.sync();
      expect(b.changes.unchangedSince(mark, ["forecast_cache"])).toBe(true);
    });
    await a.db.insertInto("forecast_cache").values({ coordinate_key: "k", fetched_at: created, payload: "{}" }).execute();
    await b.changes.sync();
    expect(b.changes.unchangedSince(mark, ["forecast_cache"])).toBe(false);
  });

  it("runs every migration exactly once when three instances open a fresh database at the same moment", async () => {
    const url = await target({ empty: true });
    const statements: string[][] = [[], [], []];
    const all = await Promise.allSettled(statements.map((heard) => opened(url, heard)));
    expect(all.map((result) => result.status)).toEqual(["fulfilled", "fulfilled", "fulfilled"]);

    const { db } = (all[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof opened>>>).value;
    const ran = await db
      .selectFrom("kysely_migration" as never)
      .select(sql<string>`name`.as("name"))
      .execute();
    expect(ran.map((row) => row.name).sort()).toEqual(Object.keys(migrations).sort());
    // Each migration's first statement (and so the migration) ran in one instance only.
    const heard = statements.flat();
    expect(heard.filter((text) => /^create table "users"/.test(text))).toHaveLength(1);
    expect(heard.filter((text) => /^create table "removed_items"/.test(text))).toHaveLength(1);
    expect(heard.filter((text) => /^insert into "kysely_migration"/.test(text))).toHaveLength(Object.keys(migrations).length);
  });

  it("keeps serving when the server ends an idle pooled connection", async () => {
    const url = await target();
    const { db } = await opened(url);
    await db.selectFrom("users").select("id").execute();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const database = new URL(url).pathname.slice(1);
    await withAdmin(requireTestPostgres().adminUrl, (client) =>
      client.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()", [database]),
    );
    await vi.waitFor(() => expect(warn).toHaveBeenCalledWith(expect.stringContaining("[db] an idle PostgreSQL connection failed")));
    expect(await db.selectFrom("users").select("id").execute()).toEqual([]);
  });

  it("compresses the cached forecasts and air with lz4, and keeps only rules with a wake in the wake index (0021)", async () => {
    const { db } = await opened(await target());
    const { rows: compression } = await sql<{ table: string; method: string }>`
      select attrelid::regclass::text as table, attcompression as method from pg_attribute
      where attname = 'payload' and attrelid in ('forecast_cache'::regclass, 'air_quality_cache'::regclass) order by 1`.execute(db);
    expect(compression).toEqual([
      { table: "air_quality_cache", method: "l" },
      { table: "forecast_cache", method: "l" },
    ]);
    const { rows: index } = await sql<{ definition: string }>`
      select indexdef as definition from pg_indexes where indexname = 'alert_rules_wake'`.execute(db);
    expect(index[0]!.definition).toMatch(/WHERE \(next_wake_at IS NOT NULL\)$/);
  });
});
