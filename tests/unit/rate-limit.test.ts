import { afterEach, describe, expect, it } from "vitest";
import { createRateLimits, type WindowRule } from "~/api/auth/rate-limit.server";
import { openDatabase, type Db } from "~/api/db/database.server";

const RULE: WindowRule = { name: "test", limit: 3, windowMs: 60_000 };

let db: Db | undefined;
afterEach(async () => {
  await db?.destroy();
  db = undefined;
});

async function limitsAt(start: number) {
  ({ db } = await openDatabase(":memory:"));
  const clock = { now: start };
  return { limits: createRateLimits(db, { dialect: "sqlite", now: () => clock.now }), clock };
}

describe("rate limits in the database (a sliding window)", () => {
  it("refuses the event past the limit until the oldest of the window leaves it", async () => {
    const { limits, clock } = await limitsAt(1_000_000);
    for (let i = 0; i < 3; i++) {
      expect(await limits.take([{ rule: RULE, key: "k" }])).toHaveProperty("eventIds");
      clock.now += 10_000;
    }
    // Events at 0 s, 10 s, 20 s; now 30 s: the first leaves the window at 60 s.
    expect(await limits.take([{ rule: RULE, key: "k" }])).toEqual({ waitMs: 30_000 });
    expect(await limits.take([{ rule: RULE, key: "other" }])).toHaveProperty("eventIds");
    clock.now = 1_000_000 + 60_000;
    expect(await limits.take([{ rule: RULE, key: "k" }])).toHaveProperty("eventIds");
    // Now 10 s, 20 s and 60 s fill it: the next frees at 70 s.
    expect(await limits.take([{ rule: RULE, key: "k" }])).toEqual({ waitMs: 10_000 });
  });

  it("counts several keys all or none, and takes back or forgets what it counted", async () => {
    const { limits } = await limitsAt(2_000_000);
    const tight: WindowRule = { name: "tight", limit: 1, windowMs: 60_000 };
    const first = await limits.take([
      { rule: RULE, key: "a" },
      { rule: tight, key: "b" },
    ]);
    expect(first).toHaveProperty("eventIds");
    // "b" is full, so "a" is not counted either.
    expect(
      await limits.take([
        { rule: RULE, key: "a" },
        { rule: tight, key: "b" },
      ]),
    ).toEqual({ waitMs: 60_000 });
    expect(await limits.take([{ rule: RULE, key: "a" }])).toHaveProperty("eventIds");
    expect(await limits.take([{ rule: RULE, key: "a" }])).toHaveProperty("eventIds");
    expect(await limits.take([{ rule: RULE, key: "a" }])).toHaveProperty("waitMs");
    await limits.release(first as { eventIds: string[] });
    expect(await limits.take([{ rule: tight, key: "b" }])).toHaveProperty("eventIds");
    expect(await limits.take([{ rule: RULE, key: "a" }])).toHaveProperty("eventIds");
    await limits.reset(RULE, "a");
    expect(await db!.selectFrom("rate_events").select("key").where("rule", "=", RULE.name).execute()).toEqual([]);
  });

  it("deletes events that have left their window", async () => {
    const { limits, clock } = await limitsAt(3_000_000);
    await limits.take([{ rule: RULE, key: "old" }]);
    clock.now += 61_000;
    await limits.take([{ rule: RULE, key: "new" }]);
    await limits.settled();
    const left = await db!.selectFrom("rate_events").select("key").execute();
    expect(left).toEqual([{ key: "new" }]);
    expect(await db!.selectFrom("rate_limit_keys").select("key").execute()).toEqual([]);
  });
});
