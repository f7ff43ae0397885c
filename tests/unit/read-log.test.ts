import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { ChangeTracker } from "~/api/db/change-tracker.server";
import { openDatabase, type Db } from "~/api/db/database.server";
import { createReadCache } from "~/api/db/read-cache.server";
import { EVERY_TABLE, ReadLog } from "~/api/db/read-log.server";

const open: Db[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((db) => db.destroy()));
});

async function database() {
  const opened = await openDatabase(":memory:");
  open.push(opened.db);
  return opened;
}

/** The tables `run` read through the Kysely it is given, which logs them. */
async function tablesRead(db: Db, changes: ChangeTracker, run: (logged: Db) => Promise<unknown>): Promise<string[]> {
  const log = new ReadLog();
  await run(changes.reads.logTo(db, log));
  return [...log.tables].sort();
}

describe("the read log", () => {
  it("logs every table of a join, of subqueries in the columns, conditions and FROM, of a CTE and of a union", async () => {
    const { db, changes } = await database();
    expect(
      await tablesRead(db, changes, (db) =>
        db
          .selectFrom("places")
          .innerJoin("alert_rules", "alert_rules.place_id", "places.id")
          .leftJoin("settings", "settings.user_id", "places.user_id")
          .select((eb) => [
            "places.id",
            eb.selectFrom("briefing_places").select("briefing_places.briefing_id").whereRef("place_id", "=", "places.id").limit(1).as("b"),
          ])
          .where((eb) => eb.exists(eb.selectFrom("messages").select("messages.id").whereRef("messages.place_id", "=", "places.id")))
          .where("places.user_id", "in", (eb) => eb.selectFrom("sessions").select("sessions.user_id"))
          .execute(),
      ),
    ).toEqual(["alert_rules", "briefing_places", "messages", "places", "sessions", "settings"]);

    expect(
      await tablesRead(db, changes, (db) =>
        db
          .with("recent", (eb) => eb.selectFrom("messages").select("user_id"))
          .selectFrom((eb) => eb.selectFrom("users").select("id").as("u"))
          .innerJoin("recent", "recent.user_id", "u.id")
          .select("u.id")
          .union(db.selectFrom("briefings").select("briefings.user_id as id"))
          .execute(),
      ),
    ).toEqual(expect.arrayContaining(["briefings", "messages", "users"]));
  });

  it("logs a raw statement that reads as reading every table, and a raw expression without FROM as nothing more", async () => {
    const { db, changes } = await database();
    expect(await tablesRead(db, changes, (db) => sql`select count(*) from places`.execute(db))).toEqual([EVERY_TABLE]);
    expect(
      await tablesRead(db, changes, (db) =>
        db
          .selectFrom("messages")
          .select(sql<number>`max(rowid)`.as("seq"))
          .execute(),
      ),
    ).toEqual(["messages"]);
  });

  it("keeps computations under way at once apart, each logging through its own Kysely, transactions included", async () => {
    const { db, changes } = await database();
    const first = new ReadLog();
    const second = new ReadLog();
    const firstDb = changes.reads.logTo(db, first);
    const secondDb = changes.reads.logTo(db, second);
    await Promise.all([
      (async () => {
        await firstDb.selectFrom("users").selectAll().execute();
        await new Promise((resolve) => setTimeout(resolve, 5));
        await firstDb.transaction().execute((trx) => trx.selectFrom("settings").selectAll().execute());
      })(),
      (async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        await secondDb.selectFrom("messages").selectAll().execute();
      })(),
    ]);
    expect([...first.tables].sort()).toEqual(["settings", "users"]);
    expect([...second.tables]).toEqual(["messages"]);
    expect(first.mark).toBeDefined();
  });

  it("counts the queries run on the shared Kysely, outside any log, and not those logged or exempt", async () => {
    const { db, changes } = await database();
    const before = changes.reads.unlogged;
    await changes.reads.logTo(db, new ReadLog()).selectFrom("places").selectAll().execute();
    await changes.reads.exempt(db).selectFrom("places").selectAll().execute();
    expect(changes.reads.unlogged).toBe(before);
    await db.selectFrom("places").selectAll().execute();
    await db.transaction().execute((trx) => trx.selectFrom("users").selectAll().execute());
    expect(changes.reads.unlogged).toBe(before + 2);
  });
});

describe("ChangeTracker and every table", () => {
  it("counts any write after the mark as a change to a read of every table", () => {
    const changes = new ChangeTracker(() => 1);
    const mark = changes.mark();
    changes.recordStatement("select * from places");
    expect(changes.unchangedSince(mark, [EVERY_TABLE])).toBe(true);
    changes.recordStatement('update "messages" set x = 1');
    expect(changes.unchangedSince(mark, [EVERY_TABLE])).toBe(false);
    expect(changes.unchangedSince(mark, ["places"])).toBe(true);
  });
});

describe("a read cache and the read log", () => {
  it("depends on the tables its read ran SQL on, and passes them on to the caller's log, cached or read", async () => {
    const { db, changes } = await database();
    const cache = createReadCache<string, number>({ changes, db, maxEntries: 10 });
    let reads = 0;
    const read = async (logged: Db) => {
      reads++;
      return (await logged.selectFrom("places").innerJoin("users", "users.id", "places.user_id").select("places.id").execute()).length;
    };
    const first = new ReadLog();
    await cache.get("u1", first, read);
    expect([...first.tables].sort()).toEqual(["places", "users"]);
    const cached = new ReadLog();
    await cache.get("u1", cached, read);
    expect([...cached.tables].sort()).toEqual(["places", "users"]);
    expect(cached.mark).toBeDefined();
    expect(reads).toBe(1);
    await db.deleteFrom("users").execute();
    const again = new ReadLog();
    await cache.get("u1", again, read);
    expect([...again.tables].sort()).toEqual(["places", "users"]);
    expect(reads).toBe(2);
  });
});

describe("SQL outside the read log", () => {
  const app = path.resolve(import.meta.dirname, "../../app");
  const sources = readdirSync(app, { recursive: true, encoding: "utf8" }).filter((file) => /\.[cm]?[jt]sx?$/.test(file));
  const using = (pattern: RegExp) => sources.filter((file) => pattern.test(readFileSync(path.join(app, file), "utf8")));

  it("runs nowhere but in the database modules: only they open SQLite or PostgreSQL themselves", () => {
    expect(using(/["']better-sqlite3["']/)).toEqual([path.join("api", "db", "sqlite.server.ts")]);
    // The write announcements' listener reads no rows: it LISTENs and makes empty round trips (`select 1`).
    expect(using(/from ["']pg["']/).sort()).toEqual([
      path.join("api", "db", "postgres.server.ts"),
      path.join("api", "db", "write-announcements.server.ts"),
    ]);
  });

  it("is not sent to Kysely precompiled, which skips its plugins", () => {
    // Reading the executor's adapter (which database a migration runs on) runs nothing.
    expect(using(/\bCompiledQuery\b|\.executeQuery\(|\.getExecutor\(\)(?!\.adapter\b)/)).toEqual([]);
  });
});
