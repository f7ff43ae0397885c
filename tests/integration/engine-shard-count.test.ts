import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { createShardLeases } from "~/api/bot/engine-shards.server";
import { scopeOf, shardOf } from "~/api/bot/shard-ranges";
import { openDatabase, type Db } from "~/api/db/database.server";
import { testDatabaseUrl } from "../support/test-database";

/*
 * The shard count is a setting (decision 026): any count cuts the ids into ranges that cover each id once, the rows
 * follow the setting, and more than 16 instances each get a share of a tick.
 */
const range = (count: number) => Array.from({ length: count }, (_, index) => index);
const inside = (id: string, shards: number[], count: number) =>
  (scopeOf(shards, count) ?? [{ from: null, to: null }]).some((r) => (r.from === null || id >= r.from) && (r.to === null || id < r.to));

const opened: Db[] = [];
afterAll(async () => {
  await Promise.all(opened.map((db) => db.destroy()));
});

describe("a shard count of the setting's", () => {
  it("cuts the ids into ranges that hold each id in exactly one shard, for any count", () => {
    const ids = [...Array.from({ length: 300 }, () => randomUUID()), "", "0", "0000", "ffff", "f", "~"];
    for (const count of [1, 7, 16, 64, 100, 4096]) {
      for (const id of ids) {
        const holders = range(count).filter((shard) => inside(id, [shard], count));
        expect(holders).toEqual([shardOf(id, count)]);
      }
      expect(scopeOf(range(count), count)).toBeNull();
    }
    // 16 shards are cut where they always were.
    expect(scopeOf([0, 1, 2, 7, 15], 16)).toEqual([
      { from: null, to: "3" },
      { from: "7", to: "8" },
      { from: "f", to: null },
    ]);
  });

  it("lays out its rows, and shares a tick among 20 instances, each shard to one of them", async () => {
    const { db, dialect } = await openDatabase((await testDatabaseUrl()) ?? ":memory:");
    opened.push(db);
    const now = Date.parse("2026-06-01T05:00:00.000Z");
    const instances = range(20).map((index) =>
      createShardLeases({ db, dialect, instanceId: `i${index}`, leaseMs: 10_000, aliveMs: 60_000, clock: () => now }),
    );
    for (const instance of instances) await instance.register(100);
    const shares = await Promise.all(instances.map((instance) => instance.register(100)));
    expect(shares).toEqual(range(20).map(() => Math.ceil(100 / 20)));
    const claims = await Promise.all(instances.map((instance, index) => instance.claim(1, shares[index]!)));
    expect(claims.flat().sort((a, b) => a - b)).toEqual(range(100));
    // Every one of the 20 works: more instances than the 16 shards there used to be.
    expect(claims.filter((claim) => claim.length > 0).length).toBe(20);
    // Fewer shards: the rows beyond the count go.
    await instances[0]!.register(8);
    expect((await db.selectFrom("engine_shards").select("shard").orderBy("shard").execute()).map((row) => row.shard)).toEqual(range(8));
  });
});
