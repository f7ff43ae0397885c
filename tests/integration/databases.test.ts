import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openDatabase, type Db } from "~/api/db/database.server";
import { migrations } from "~/api/db/migrations.server";
import { isUniqueViolation } from "~/api/db/unique-violation.server";
import { LISTENER_NAME } from "~/api/db/write-announcements.server";
import { testDatabaseTarget, testPostgres, withAdmin } from "../support/test-database";

/*
 * What the two databases must do alike, on whichever this run uses: the same schema from
 * the same migrations, numbers as numbers, every statement heard, cascades followed.
 */
const dirs: string[] = [];
const open: Db[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((db) => db.destroy()));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function target(options: { empty?: boolean } = {}) {
  const dir = await mkdtemp(path.join(tmpdir(), "weatherbot-databases-"));
  dirs.push(dir);
  return testDatabaseTarget(dir, options);
}

async function opened(where: string, statements?: string[]) {
  const database = await openDatabase(where, { onStatement: statements && ((text) => statements.push(text)) });
  open.push(database.db);
  return database;
}

const created = "2026-06-01T00:00:00.000Z";
const user = (id: string) => ({ id, email: `${id}@example.com`, password_hash: "-", created_at: created });
const place = (id: string, userId: string, latitude: number, position: number) => ({
  id,
  user_id: userId,
  label: id,
  name: id,
  admin1: null,
  country_code: null,
  latitude,
  longitude: 8.541694,
  time_zone: "Europe/Zurich",
  position,
  created_at: created,
});

describe("either database", () => {
  it("is the one DATABASE_URL names", async () => {
    const { dialect } = await opened(await target());
    expect(dialect).toBe(testPostgres() ? "postgres" : "sqlite");
  });

  it("gives counts, sums and maxima as numbers", async () => {
    const { db } = await opened(await target());
    await db.insertInto("users").values(user("u1")).execute();
    await db
      .insertInto("places")
      .values([place("p1", "u1", 47.376887123456, 0), place("p2", "u1", -33.868820123456, 7)])
      .execute();
    const figures = await db
      .selectFrom("places")
      .select((eb) => [
        eb.fn.countAll<number>().as("count"),
        eb.fn.max<number>("position").as("max"),
        eb.fn.sum<number>("position").as("sum"),
      ])
      .executeTakeFirstOrThrow();
    expect(figures).toEqual({ count: 2, max: 7, sum: 7 });
  });

  it("keeps every digit of a float", async () => {
    const { db } = await opened(await target());
    await db.insertInto("users").values(user("u1")).execute();
    await db
      .insertInto("places")
      .values([place("p1", "u1", 47.376887123456, 0), place("p2", "u1", -33.868820123456, 7)])
      .execute();
    const latitudes = await db.selectFrom("places").select("latitude").orderBy("position").execute();
    expect(latitudes.map((row) => row.latitude)).toEqual([47.376887123456, -33.868820123456]);
  });

  it("lets the change tracker hear every write and follow the schema's cascades", async () => {
    const statements: string[] = [];
    const { db, changes } = await opened(await target(), statements);
    let mark = changes.mark();
    await db.insertInto("users").values(user("u1")).execute();
    await db
      .insertInto("places")
      .values(place("p1", "u1", 47.37, 0))
      .execute();
    expect(statements.some((text) => /^insert into "places"/.test(text))).toBe(true);
    expect(changes.unchangedSince(mark, ["users"])).toBe(false);
    expect(changes.unchangedSince(mark, ["forecast_cache"])).toBe(true);

    // The schema's ON DELETE CASCADE from users reaches sessions and places; forecast_cache is not reached.
    mark = changes.mark();
    const reachedBefore = (tables: string[]) => tables.filter((table) => !changes.unchangedSince(mark, [table]));
    await db.deleteFrom("users").where("id", "=", "u1").execute();
    expect(reachedBefore(["users", "sessions", "places", "alert_states", "briefing_places", "forecast_cache"])).toEqual([
      "users",
      "sessions",
      "places",
      "alert_states",
      "briefing_places",
    ]);
  });

  it("hears another instance's commits, table by table on PostgreSQL, before a request's check", async () => {
    const where = await target();
    const a = await opened(where);
    const b = await opened(where);
    await a.db.insertInto("users").values(user("u1")).execute();
    await a.db
      .insertInto("places")
      .values(place("p1", "u1", 47.37, 0))
      .execute();
    await b.changes.sync();
    const mark = b.changes.mark();
    await a.db.deleteFrom("users").where("id", "=", "u1").execute();
    await b.changes.sync();
    // What A's delete reached (its cascades included) has changed for B; on SQLite data_version says "something", for every table.
    expect(b.changes.unchangedSince(mark, ["users"])).toBe(false);
    expect(b.changes.unchangedSince(mark, ["places"])).toBe(false);
    expect(b.changes.unchangedSince(mark, ["forecast_cache"])).toBe(Boolean(testPostgres()));
  });

  it("trusts nothing kept while it cannot hear the other instances, and hears them again after", async ({ skip }) => {
    if (!testPostgres()) skip("SQLite reads other processes' commits from the file: there is no connection to lose");
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

  it("tells a broken unique index or primary key from other failures", async () => {
    const { db } = await opened(await target());
    await db.insertInto("users").values(user("u1")).execute();
    const failure = (write: Promise<unknown>) =>
      write.then(
        () => null,
        (error: unknown) => error,
      );
    const sameEmail = await failure(
      db
        .insertInto("users")
        .values({ ...user("u2"), email: "u1@example.com" })
        .execute(),
    );
    const sameId = await failure(
      db
        .insertInto("users")
        .values({ ...user("u1"), email: "other@example.com" })
        .execute(),
    );
    const noUser = await failure(
      db
        .insertInto("places")
        .values(place("p1", "nobody", 1, 0))
        .execute(),
    );
    expect([sameEmail, sameId, noUser].map((error) => error !== null)).toEqual([true, true, true]);
    expect([sameEmail, sameId, noUser].map(isUniqueViolation)).toEqual([true, true, false]);
  });
});

describe.runIf(testPostgres())("PostgreSQL", () => {
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
    await withAdmin(testPostgres()!.adminUrl, (client) =>
      client.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()", [database]),
    );
    await vi.waitFor(() => expect(warn).toHaveBeenCalledWith(expect.stringContaining("[db] an idle PostgreSQL connection failed")));
    expect(await db.selectFrom("users").select("id").execute()).toEqual([]);
  });
});
