import { randomBytes } from "node:crypto";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createRateLimits, type WindowRule } from "~/api/auth/rate-limit.server";
import { createInbox } from "~/api/bot/inbox.server";
import type { MessageStream } from "~/api/bot/message-stream";
import type { Db } from "~/api/db/database.server";
import { timeOrderedLowerBound } from "~/shared/live-cursor";
import { postgresTestDatabaseUrl, requireTestPostgres, withAdmin } from "../../support/test-database";

/**
 * What several instances share, on PostgreSQL, where it needs its own code: two instances,
 * each with its own pool, on one migrated database of the run (dropped when the file ends).
 */
const pools: pg.Pool[] = [];

/** One instance's database: its own pool on the run's database. */
function instanceDb(url: string, size = 10): Db {
  const pool = new pg.Pool({ connectionString: url, max: size });
  pools.push(pool);
  return new Kysely({ dialect: new PostgresDialect({ pool }) });
}

let a: Db;
let b: Db;
let database: string;
beforeAll(async () => {
  const url = await postgresTestDatabaseUrl();
  database = new URL(url).pathname.slice(1);
  a = instanceDb(url);
  b = instanceDb(url);
});
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  // An ended pool's connections take a moment to go; the database's drop after this file would end
  // those left by force, and their clients, no longer in a pool that listens, would throw that error.
  await vi.waitFor(
    async () => {
      const { rows } = await withAdmin(requireTestPostgres().adminUrl, (client) =>
        client.query<{ left: number }>("select count(*)::int as left from pg_stat_activity where datname = $1", [database]),
      );
      expect(rows[0]!.left).toBe(0);
    },
    { timeout: 10_000, interval: 100 },
  );
});

describe("PostgreSQL: state several instances share", () => {
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

  describe("live messages", () => {
    const now = () => new Date();
    let count = 0;
    const message = (userId: string) => ({ userId, kind: "SYSTEM" as const, title: `pg ${++count}`, body: "", dedupeKey: `pg:${count}` });

    async function newUser(): Promise<string> {
      const id = `user-${randomBytes(6).toString("hex")}`;
      await a
        .insertInto("users")
        .values({ id, email: `${id}@example.com`, password_hash: "x", created_at: now().toISOString() })
        .execute();
      return id;
    }

    /** What a stream delivers, as it arrives. */
    function drain(stream: MessageStream) {
      const ids: string[] = [];
      void (async () => {
        for await (const row of stream) ids.push(row.id);
      })();
      return ids;
    }

    it("a message written through one instance reaches a subscriber on another within a second, once", async () => {
      const userId = await newUser();
      const onA = createInbox(a, now);
      const onB = createInbox(b, now);
      const stopFollowing = onB.follow();
      await stopFollowing.ready;
      try {
        const received = drain(onB.subscribe(userId, timeOrderedLowerBound(Date.now())));
        const written: string[] = [];
        for (let i = 0; i < 3; i++) {
          const row = await onA.write(message(userId));
          onA.publish(row!);
          written.push(row!.id);
          await vi.waitFor(() => expect(received).toEqual(written), { timeout: 1_000, interval: 10 });
        }
      } finally {
        await stopFollowing();
      }
    });

    it("two transactions at once: the one that began writing first commits first, and the follower delivers both, in commit order", async () => {
      const userId = await newUser();
      const onA = createInbox(a, now);
      const onB = createInbox(b, now);
      const stopFollowing = onB.follow();
      await stopFollowing.ready;
      try {
        const received = drain(onB.subscribe(userId, timeOrderedLowerBound(Date.now())));
        // T1 writes its message and then stays open; T2 starts writing while T1 is open.
        let release!: () => void;
        let firstId: string | undefined;
        const first = a.transaction().execute(async (trx) => {
          firstId = (await onA.write(message(userId), trx))!.id;
          await new Promise<void>((resolve) => (release = resolve));
        });
        await vi.waitFor(() => expect(firstId).toBeDefined());
        const second = onB.writeMany([message(userId), message(userId)]);
        // T2 waits for T1's commit (it is blocked on the order row), and the follower skips nothing meanwhile.
        await vi.waitFor(async () => {
          const waiting = await a
            .selectFrom(sql<{ wait_event_type: string | null; query: string }>`pg_stat_activity`.as("activity"))
            .select("wait_event_type")
            .where("query", "like", "%message_order%")
            .where("wait_event_type", "=", "Lock")
            .where(sql<boolean>`datname = current_database()`)
            .execute();
          expect(waiting.length).toBeGreaterThanOrEqual(1);
        });
        expect(received).toEqual([]);
        release();
        await first;
        const secondIds = (await second).map((row) => row.id);
        // T1 took its id first and committed first; T2's ids come after it, and all three arrive in that order.
        expect(secondIds.every((id) => id > firstId!)).toBe(true);
        await vi.waitFor(() => expect(received).toEqual([firstId, ...secondIds]), { timeout: 1_000, interval: 10 });
      } finally {
        await stopFollowing();
      }
    });
  });
});
