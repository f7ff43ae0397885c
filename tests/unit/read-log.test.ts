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

/** The tables `run` read, as the database's recorder logged them. */
async function tablesRead(changes: ChangeTracker, run: () => Promise<unknown>): Promise<string[]> {
  const log = new ReadLog();
  await changes.reads.run(log, run);
  return [...log.tables].sort();
}

describe("the read log", () => {
  it("logs every table of a join, of subqueries in the columns, conditions and FROM, of a CTE and of a union", async () => {
    const { db, changes } = await database();
    expect(
      await tablesRead(changes, () =>
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
      await tablesRead(changes, () =>
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
    expect(await tablesRead(changes, () => sql`select count(*) from places`.execute(db))).toEqual([EVERY_TABLE]);
    expect(
      await tablesRead(changes, () =>
        db
          .selectFrom("messages")
          .select(sql<number>`max(rowid)`.as("seq"))
          .execute(),
      ),
    ).toEqual(["messages"]);
  });

  it("logs nothing outside a run, and keeps runs under way at once apart", async () => {
    const { db, changes } = await database();
    const outside = new ReadLog();
    await db.selectFrom("places").selectAll().execute();
    const first = new ReadLog();
    const second = new ReadLog();
    await Promise.all([
      changes.reads.run(first, async () => {
        await db.selectFrom("users").selectAll().execute();
        await new Promise((resolve) => setTimeout(resolve, 5));
        await db.selectFrom("settings").selectAll().execute();
      }),
      changes.reads.run(second, async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        await db.selectFrom("messages").selectAll().execute();
      }),
    ]);
    expect([...outside.tables]).toEqual([]);
    expect([...first.tables].sort()).toEqual(["settings", "users"]);
    expect([...second.tables]).toEqual(["messages"]);
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
  it("depends on the tables its read ran SQL on, and passes them on to the run under way, kept or read", async () => {
    const { db, changes } = await database();
    const cache = createReadCache<string, number>({ changes, maxEntries: 10 });
    let reads = 0;
    const read = async () => {
      reads++;
      return (await db.selectFrom("places").innerJoin("users", "users.id", "places.user_id").select("places.id").execute()).length;
    };
    expect(await tablesRead(changes, () => cache.get("u1", read))).toEqual(["places", "users"]);
    expect(await tablesRead(changes, () => cache.get("u1", read))).toEqual(["places", "users"]);
    expect(reads).toBe(1);
    await db.deleteFrom("users").execute();
    expect(await tablesRead(changes, () => cache.get("u1", read))).toEqual(["places", "users"]);
    expect(reads).toBe(2);
  });
});

describe("SQL outside the read log", () => {
  const app = path.resolve(import.meta.dirname, "../../app");
  const sources = readdirSync(app, { recursive: true, encoding: "utf8" }).filter((file) => /\.[cm]?[jt]sx?$/.test(file));
  const using = (pattern: RegExp) => sources.filter((file) => pattern.test(readFileSync(path.join(app, file), "utf8")));

  it("runs nowhere but in the database modules: only they open SQLite or PostgreSQL themselves", () => {
    expect(using(/["']better-sqlite3["']/)).toEqual([path.join("api", "db", "sqlite.server.ts")]);
    expect(using(/from ["']pg["']/)).toEqual([path.join("api", "db", "postgres.server.ts")]);
  });

  it("is not sent to Kysely precompiled, which skips its plugins", () => {
    // Reading the executor's adapter (which database a migration runs on) runs nothing.
    expect(using(/\bCompiledQuery\b|\.executeQuery\(|\.getExecutor\(\)(?!\.adapter\b)/)).toEqual([]);
  });
});
