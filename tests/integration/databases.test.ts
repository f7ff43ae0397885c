import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "~/api/db/database.server";
import { isUniqueViolation } from "~/api/db/unique-violation.server";
import { testDatabaseTarget, testPostgres } from "../support/test-database";

/*
 * What the two databases must do alike, on whichever this run uses: the same schema from
 * the same migrations, numbers as numbers, every statement heard, cascades followed.
 * What only PostgreSQL has (a listening connection to lose, concurrent migrations, a pool)
 * is in postgres/databases.test.ts.
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

/** A user with two places: latitudes with every digit a float keeps, positions 0 and 7. */
async function seedTwoPlaces(db: Awaited<ReturnType<typeof opened>>["db"]) {
  await db.insertInto("users").values(user("u1")).execute();
  await db
    .insertInto("places")
    .values([place("p1", "u1", 47.376887123456, 0), place("p2", "u1", -33.868820123456, 7)])
    .execute();
}

describe("either database", () => {
  it("is the one DATABASE_URL names", async () => {
    const { dialect } = await opened(await target());
    expect(dialect).toBe(testPostgres() ? "postgres" : "sqlite");
  });

  it("gives counts, sums and maxima as numbers", async () => {
    const { db } = await opened(await target());
    await seedTwoPlaces(db);
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
    await seedTwoPlaces(db);
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
    // A request from outside arrives in a later turn of the event loop, which is when SQLite's data_version is asked again.
    await new Promise((resolve) => setImmediate(resolve));
    // What A's delete reached (its cascades included) has changed for B; on SQLite data_version says "something", for every table.
    expect(b.changes.unchangedSince(mark, ["users"])).toBe(false);
    expect(b.changes.unchangedSince(mark, ["places"])).toBe(false);
    expect(b.changes.unchangedSince(mark, ["forecast_cache"])).toBe(Boolean(testPostgres()));
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
