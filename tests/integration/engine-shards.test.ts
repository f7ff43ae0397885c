import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { createShardLeases, type ShardDialect } from "~/api/bot/engine-shards.server";
import { ENGINE_SHARDS, scopeOf, shardOf } from "~/api/bot/shard-ranges";
import { openDatabase, type Db } from "~/api/db/database.server";
import { testDatabaseUrl } from "../support/test-database";

/*
 * The engine's shard leases (decision 010), on the database of the run's project (SQLite,
 * or a database of its own on the run's PostgreSQL server). The claim is the one statement
 * written twice: PostgreSQL's reads its candidates FOR UPDATE SKIP LOCKED.
 */
const LEASE_MS = 10_000;
const ALIVE_MS = 60_000;
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, index) => from + index);

type Opened = { db: Db; dialect: ShardDialect; close: () => Promise<void> };

/** A fresh database: in memory on SQLite, a migrated database of the run on PostgreSQL. */
async function open(): Promise<Opened> {
  const { db, dialect } = await openDatabase((await testDatabaseUrl()) ?? ":memory:");
  return { db, dialect, close: () => db.destroy() };
}

const opened: Opened[] = [];
afterAll(async () => {
  await Promise.all(opened.map((database) => database.close()));
});

describe("user shards", () => {
  it("cover every id exactly once, and merge into ranges", () => {
    const ids = [...Array.from({ length: 200 }, () => randomUUID()), "", "0", "f", "g-not-hex", "ZZ", "~"];
    for (const id of ids) {
      const holders = range(0, ENGINE_SHARDS).filter((shard) =>
        scopeOf([shard])!.some((r) => (r.from === null || id >= r.from) && (r.to === null || id < r.to)),
      );
      expect(holders).toEqual([shardOf(id)]);
    }
    expect(scopeOf(range(0, ENGINE_SHARDS))).toBeNull();
    expect(scopeOf([0, 1, 2, 7, 15])).toEqual([
      { from: null, to: "3" },
      { from: "7", to: "8" },
      { from: "f", to: null },
    ]);
  });
});

describe("shard leases", () => {
  async function setup() {
    const database = await open();
    opened.push(database);
    let now = Date.parse("2026-06-01T05:00:00.000Z");
    const clock = () => now;
    const instance = (instanceId: string) =>
      createShardLeases({ db: database.db, dialect: database.dialect, instanceId, leaseMs: LEASE_MS, aliveMs: ALIVE_MS, clock });
    return { database, instance, advance: (ms: number) => (now += ms) };
  }

  it("gives each shard to one holder at a time; a held shard is free again when its lease runs out, a done one in the next tick", async () => {
    const { instance, advance } = await setup();
    const [a, b, c] = [instance("a"), instance("b"), instance("c")];
    expect(await a.claim(1, 6)).toEqual(range(0, 6));
    expect(await b.claim(1, 6)).toEqual(range(6, 12));
    expect(await a.claim(1, 6)).toEqual(range(12, 16));
    expect(await c.claim(1, 16)).toEqual([]);
    await a.finish(1, range(0, 6));
    // Renewed, a lease outlives its first term; not renewed, it runs out.
    advance(LEASE_MS / 2);
    expect(await b.renew(1, range(6, 12))).toEqual(range(6, 12));
    advance(LEASE_MS / 2 + 1);
    expect(await c.claim(1, 16)).toEqual(range(12, 16));
    // The late holder has lost them: it can neither renew nor finish them.
    expect(await a.renew(1, range(12, 16))).toEqual([]);
    await a.finish(1, range(12, 16));
    // The next tick: the shards done in tick 1 are free, the held ones are not.
    expect(await c.claim(2, 16)).toEqual(range(0, 6));
    // Given back undone, a shard is free at once.
    await b.release(1, range(6, 12));
    expect(await a.claim(1, 16)).toEqual(range(6, 12));
  });

  it("shares a tick out by the instances seen lately", async () => {
    const { instance, advance } = await setup();
    const [a, b, c] = [instance("a"), instance("b"), instance("c")];
    expect(await a.register(ENGINE_SHARDS)).toBe(16);
    expect(await b.register(ENGINE_SHARDS)).toBe(8);
    expect(await c.register(ENGINE_SHARDS)).toBe(6);
    advance(ALIVE_MS + 1);
    expect(await a.register(ENGINE_SHARDS)).toBe(16);
  });

  it("never claims more than asked, whichever plan PostgreSQL picks for the claim", async () => {
    const url = (await testDatabaseUrl()) ?? ":memory:";
    let database = await openDatabase(url);
    if (database.dialect === "postgres") {
      // A nested loop that runs the LIMIT … SKIP LOCKED candidates again for each row of the table: a plan the planner
      // may pick on its own with other statistics. Each new run skips the rows this statement already took and
      // returns the next ones (issue 34). Set for the database, so that every connection of the pool plans so.
      const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(database.db);
      for (const setting of ["enable_hashjoin", "enable_mergejoin", "enable_material", "enable_hashagg", "enable_sort"])
        await sql.raw(`alter database "${rows[0]!.name}" set ${setting} = off`).execute(database.db);
      await database.db.destroy();
      database = await openDatabase(url);
    }
    const { db, dialect } = database;
    opened.push({ db, dialect, close: () => db.destroy() });
    const leases = (instanceId: string) => createShardLeases({ db, dialect, instanceId, leaseMs: LEASE_MS, aliveMs: ALIVE_MS });
    const a = leases("a");
    await a.register(256);
    expect(await a.claim(1, 3)).toEqual([0, 1, 2]);
    const together = await Promise.all(range(0, 6).map((index) => leases(`b${index}`).claim(1, 5)));
    expect(together.map((claim) => claim.length)).toEqual([5, 5, 5, 5, 5, 5]);
    expect(new Set(together.flat()).size).toBe(30);
  });

  it("lets instances claiming at the same moment take different shards, none twice", async () => {
    const { instance } = await setup();
    const claimers = range(0, 8).map((index) => instance(`claimer-${index}`));
    const claimed = await Promise.all(claimers.map((claimer) => claimer.claim(1, 2)));
    const all = claimed.flat().sort((x, y) => x - y);
    expect(new Set(all).size).toBe(all.length);
    // None queued behind another's rows and came back empty.
    expect(all).toEqual(range(0, ENGINE_SHARDS));
  });
});
