import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ChangeTracker } from "~/api/db/change-tracker.server";
import { openDatabase } from "~/api/db/database.server";
import { createReadCache } from "~/api/db/read-cache.server";
import { ReadLog } from "~/api/db/read-log.server";
import { oncePerTurn } from "~/api/db/sqlite.server";
import type { Database } from "~/api/db/tables";
import { queryOnlyDb } from "../support/query-only-db";

function tracker() {
  let dataVersion = 1;
  const changes = new ChangeTracker(() => dataVersion);
  changes.setCascades(
    new Map([
      ["users", ["sessions", "places"]],
      ["places", ["alert_rules"]],
    ]),
  );
  return { changes, db: queryOnlyDb<Database>(changes), otherProcessCommits: () => dataVersion++ };
}

describe("ChangeTracker", () => {
  it("hears writes by the table they name, quoted or not, and nothing from reads or transaction brackets", () => {
    const { changes } = tracker();
    const mark = changes.mark();
    for (const sql of [
      "select * from places",
      "begin",
      "commit",
      "rollback",
      "savepoint x",
      "pragma data_version",
      'with a as (select 1) select * from "places"',
    ]) {
      changes.recordStatement(sql);
    }
    expect(changes.unchangedSince(mark, ["places", "sessions", "messages"])).toBe(true);
    changes.recordStatement('update "messages" set "read_at" = ? where "id" = ?');
    expect(changes.unchangedSince(mark, ["places", "sessions"])).toBe(true);
    expect(changes.unchangedSince(mark, ["messages"])).toBe(false);
    for (const [sql, table] of [
      ['insert into "places" ("id") values (?)', "places"],
      ["INSERT OR IGNORE INTO forecast_cache (k) values (?)", "forecast_cache"],
      ['delete from "sessions" where "id" = ?', "sessions"],
      ["replace into briefings values (?)", "briefings"],
    ]) {
      const before = changes.mark();
      changes.recordStatement(sql!);
      expect(changes.unchangedSince(before, [table!]), sql).toBe(false);
    }
  });

  it("follows foreign-key cascades, however deep, from deletes, updates and replacing inserts", () => {
    const { changes } = tracker();
    for (const sql of [
      'delete from "users" where "id" = ?',
      'update "users" set "id" = ?',
      'insert or replace into "users" values (?)',
      "replace into users values (?)",
    ]) {
      const mark = changes.mark();
      changes.recordStatement(sql);
      for (const table of ["users", "sessions", "places", "alert_rules"])
        expect(changes.unchangedSince(mark, [table]), `${sql}: ${table}`).toBe(false);
      expect(changes.unchangedSince(mark, ["forecast_cache"])).toBe(true);
    }
    const mark = changes.mark();
    changes.recordStatement('insert into "users" ("id") values (?)');
    expect(changes.unchangedSince(mark, ["sessions"])).toBe(true);
  });

  it("counts a write it cannot place, and a CTE that writes, as a change to every table", () => {
    const { changes } = tracker();
    const first = changes.mark();
    changes.recordStatement('create index "x" on "places" ("user_id")');
    expect(changes.unchangedSince(first, ["forecast_cache"])).toBe(false);
    const second = changes.mark();
    changes.recordStatement('with gone as (select 1) delete from "places"');
    expect(changes.unchangedSince(second, ["messages"])).toBe(false);
  });

  it("answers as of a mark taken during the asking computation: other processes' commits since it are not asked for again, own writes are", () => {
    const { changes, otherProcessCommits } = tracker();
    const kept = changes.mark();
    const asOf = changes.stillSince(kept, ["places"])!;
    expect(asOf).not.toBeNull();
    otherProcessCommits();
    expect(changes.unchangedSince(kept, ["places"])).toBe(false);
    expect(changes.unchangedSince(kept, ["places"], asOf)).toBe(true);
    changes.recordStatement('update "places" set "label" = ?');
    expect(changes.unchangedSince(kept, ["places"], asOf)).toBe(false);
  });

  it("trusts nothing marked before another connection's commit", () => {
    const { changes, otherProcessCommits } = tracker();
    const mark = changes.mark();
    otherProcessCommits();
    expect(changes.unchangedSince(mark, [])).toBe(false);
    expect(changes.unchangedSince(changes.mark(), [])).toBe(true);
  });
});

describe("createReadCache", () => {
  it("reads once while its tables are unchanged, and again after a write to one of them", async () => {
    const { changes, db, otherProcessCommits } = tracker();
    const cache = createReadCache<string, string[]>({ changes, db, maxEntries: 10 });
    let reads = 0;
    // A query on places, through the Kysely the cache hands over: the read log hears which tables it ran on.
    const read = async (logged: Kysely<Database>) => {
      await logged.selectFrom("places").selectAll().execute();
      return [`read ${++reads}`];
    };
    const log = new ReadLog();
    expect(await cache.get("u1", log, read)).toEqual(["read 1"]);
    expect(await cache.get("u1", log, read)).toEqual(["read 1"]);
    changes.recordStatement('update "messages" set x = 1');
    expect(await cache.get("u1", log, read)).toEqual(["read 1"]);
    changes.recordStatement('update "places" set "label" = ?');
    expect(await cache.get("u1", log, read)).toEqual(["read 2"]);
    otherProcessCommits();
    expect(await cache.get("u1", log, read)).toEqual(["read 3"]);
    expect(await cache.get("u1", log, read)).toEqual(["read 3"]);
    expect([...log.tables]).toEqual(["places"]);
  });

  it("does not cache a read that ran a query outside any log (on the shared Kysely, not the one it was handed)", async () => {
    const { changes, db } = tracker();
    const cache = createReadCache<string, string>({ changes, db, maxEntries: 10 });
    const careless = vi.fn(async () => {
      await db.selectFrom("places").selectAll().execute();
      return "read";
    });
    await cache.get("u1", new ReadLog(), careless);
    await cache.get("u1", new ReadLog(), careless);
    expect(careless).toHaveBeenCalledTimes(2);
    expect(cache.size).toBe(0);
  });

  it("does not cache a read during which its table was written", async () => {
    const { changes, db } = tracker();
    const cache = createReadCache<string, string>({ changes, db, maxEntries: 10 });
    const first = await cache.get("u1", new ReadLog(), async (logged) => {
      await logged.selectFrom("places").selectAll().execute();
      changes.recordStatement('insert into "places" values (?)');
      return "during a write";
    });
    expect(first).toBe("during a write");
    expect(await cache.get("u1", new ReadLog(), async () => "after it")).toBe("after it");
  });

  it("reads again what is no longer fresh, caches no null, and caches at most maxEntries, least recently used going first", async () => {
    const { changes, db } = tracker();
    let now = 0;
    const cache = createReadCache<string, { until: number } | null>({
      changes,
      db,
      maxEntries: 2,
      fresh: (value) => value !== null && now < value.until,
    });
    const read = vi.fn(async () => ({ until: 10 }));
    await cache.get("a", new ReadLog(), read);
    now = 10;
    await cache.get("a", new ReadLog(), read);
    expect(read).toHaveBeenCalledTimes(2);

    const unknown = vi.fn(async () => null);
    expect(await cache.get("nobody", new ReadLog(), unknown)).toBeNull();
    expect(await cache.get("nobody", new ReadLog(), unknown)).toBeNull();
    expect(unknown).toHaveBeenCalledTimes(2);

    now = 0;
    const readB = vi.fn(async () => ({ until: 10 }));
    const readC = vi.fn(async () => ({ until: 10 }));
    await cache.get("b", new ReadLog(), readB);
    await cache.get("a", new ReadLog(), read); // a is now the most recently used
    await cache.get("c", new ReadLog(), readC); // b goes
    expect(cache.size).toBe(2);
    await cache.get("a", new ReadLog(), read);
    await cache.get("b", new ReadLog(), readB);
    expect(read).toHaveBeenCalledTimes(2);
    expect(readB).toHaveBeenCalledTimes(2);
  });
});

describe("the database's change tracker", () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it("hears Kysely's writes, follows the schema's cascades, and sees another connection's commit", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "weatherbot-changes-"));
    dirs.push(dir);
    const file = path.join(dir, "test.sqlite");
    const here = await openDatabase(file);
    const there = await openDatabase(file);
    try {
      const created = new Date().toISOString();
      let mark = here.changes.mark();
      await here.db.selectFrom("places").selectAll().execute();
      expect(here.changes.unchangedSince(mark, ["places", "users"])).toBe(true);
      await here.db.insertInto("users").values({ id: "u1", email: "one@example.com", password_hash: "-", created_at: created }).execute();
      expect(here.changes.unchangedSince(mark, ["places"])).toBe(true);
      expect(here.changes.unchangedSince(mark, ["users"])).toBe(false);

      // The schema's ON DELETE CASCADE from users reaches sessions and places.
      mark = here.changes.mark();
      await here.db.deleteFrom("users").where("id", "=", "u1").execute();
      expect(here.changes.unchangedSince(mark, ["sessions"])).toBe(false);
      expect(here.changes.unchangedSince(mark, ["places"])).toBe(false);
      expect(here.changes.unchangedSince(mark, ["forecast_cache"])).toBe(true);

      // Another connection's commit: every table may have changed, for this one; not for the writer.
      mark = here.changes.mark();
      const theirMark = there.changes.mark();
      await there.db.insertInto("users").values({ id: "u2", email: "two@example.com", password_hash: "-", created_at: created }).execute();
      // Seen from the next turn of the event loop on (SQLite is asked once a turn, see oncePerTurn), as a request from
      // outside the process always is; within the turn it has not happened yet for this connection.
      expect(here.changes.unchangedSince(mark, ["forecast_cache"])).toBe(true);
      await new Promise((resolve) => setImmediate(resolve));
      expect(here.changes.unchangedSince(mark, ["forecast_cache"])).toBe(false);
      expect(there.changes.unchangedSince(theirMark, ["forecast_cache"])).toBe(true);
    } finally {
      await here.db.destroy();
      await there.db.destroy();
    }
  });
});

describe("oncePerTurn", () => {
  it("asks once in a turn of the event loop and again in the next", async () => {
    let asked = 0;
    const read = oncePerTurn(() => ++asked);
    expect([read(), read(), read()]).toEqual([1, 1, 1]);
    await Promise.resolve();
    expect(read()).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect([read(), read()]).toEqual([2, 2]);
    expect(asked).toBe(2);
  });
});
