import { randomBytes } from "node:crypto";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRateLimits, type WindowRule } from "~/api/auth/rate-limit.server";
import { migrate, type Db } from "~/api/db/database.server";

/**
 * What several instances share, on PostgreSQL, where it needs its own code. Runs against
 * TEST_POSTGRES_URL (a server the caller started) until the test harness starts one itself;
 * each run works in a schema of its own, dropped at the end.
 */
const url = process.env.TEST_POSTGRES_URL;
const schema = `shared_${randomBytes(6).toString("hex")}`;
const pools: pg.Pool[] = [];

/** One instance's database: its own pool on the run's schema. */
function instanceDb(size = 10): Db {
  const pool = new pg.Pool({ connectionString: url, max: size, options: `-c search_path=${schema}` });
  pools.push(pool);
  return new Kysely({ dialect: new PostgresDialect({ pool }) });
}

let a: Db;
let b: Db;
beforeAll(async () => {
  if (!url) return;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  a = instanceDb();
  b = instanceDb();
  await migrate(a);
});
afterAll(async () => {
  if (!url) return;
  await Promise.all(pools.map((pool) => pool.end()));
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DROP SCHEMA ${schema} CASCADE`);
  await admin.end();
});

describe.skipIf(!url)("PostgreSQL: state several instances share", () => {
  it("rate limits: of 40 events at once from two instances on one key, exactly the limit pass", async () => {
    const rule: WindowRule = { name: "pg-race", limit: 7, windowMs: 60_000 };
    const onA = createRateLimits(a, { dialect: "postgres" });
    const onB = createRateLimits(b, { dialect: "postgres" });
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 === 0 ? onA : onB).take([
          { rule, key: "k" },
          { rule: { ...rule, name: "pg-race-2" }, key: `other-${i % 3}` },
        ]),
      ),
    );
    expect(results.filter((result) => "eventIds" in result).length).toBe(rule.limit);
    const counted = await a.selectFrom("rate_events").select("id").where("rule", "=", "pg-race").execute();
    expect(counted.length).toBe(rule.limit);
    const refused = results.find((result) => "waitMs" in result) as { waitMs: number };
    expect(refused.waitMs).toBeGreaterThan(59_000);
  });
});
