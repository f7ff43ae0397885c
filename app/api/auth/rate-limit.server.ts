import { sql } from "kysely";
import type { Db } from "../db/database.server";
import { timeOrderedId } from "../db/ids.server";
import { createOutageLog } from "../db/outage-log.server";
import type { RateEventTable } from "../db/tables";

/** A sliding window: at most `limit` events per key within `windowMs`. `name` keeps its keys apart from other rules'. */
export type WindowRule = { name: string; limit: number; windowMs: number };

/** One event to count: `key` under `rule`. */
export type Count = { rule: WindowRule; key: string };

/** Events counted at once by `take`, so they can be taken back together. */
export type Taken = { readonly eventIds: readonly string[] };

/** How often each process deletes events that have left their window (and lock rows no longer touched). */
const PRUNE_EVERY_MS = 60_000;

/**
 * Sliding-window counters kept in the database, so that every instance on it counts
 * against the same limits (a second instance is no way around one). After `limit` events
 * for a key within `windowMs`, the key waits until the oldest of them leaves the window.
 *
 * Checking and counting is one conditional `INSERT … SELECT … WHERE <every key has room>`,
 * so no instance can read a count, be overtaken, and then write. On SQLite that statement is
 * enough: one writer at a time, and a statement that writes takes the lock before it reads.
 * On PostgreSQL two statements at once would each see the other's slot as free (each reads
 * its own snapshot), so the insert runs in a transaction that first writes the keys' lock
 * rows (`rate_limit_keys`, in one fixed order): every other taker of those keys waits for
 * the commit, and its insert, a later statement, then sees the event.
 */
export function createRateLimits(db: Db, { dialect, now = Date.now }: { dialect: "sqlite" | "postgres"; now?: () => number }) {
  const rules = new Map<string, WindowRule>();
  let lastPrune = now();
  let pruning: Promise<void> | null = null;
  const pruneLog = createOutageLog("[rate-limit]", "could not delete old events");

  async function prune() {
    const time = now();
    for (const rule of rules.values()) {
      const cutoff = new Date(time - rule.windowMs).toISOString();
      await db.deleteFrom("rate_events").where("rule", "=", rule.name).where("at", "<=", cutoff).execute();
      await db.deleteFrom("rate_limit_keys").where("rule", "=", rule.name).where("touched_at", "<=", cutoff).execute();
    }
  }

  function pruneNowAndThen() {
    if (pruning || now() - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = now();
    pruning = prune()
      .then(pruneLog.succeeded, pruneLog.failed)
      .finally(() => (pruning = null));
  }

  /** Inserts the events when every count's key has room; returns whether it did. */
  async function countIfRoom(executor: Db, counts: readonly Count[], events: readonly RateEventTable[], time: number) {
    const rows = sql.join(
      events.map((event) => sql`SELECT ${event.id} AS id, ${event.rule} AS rule, ${event.key} AS key, ${event.at} AS at`),
      sql` UNION ALL `,
    );
    const room = sql.join(
      counts.map(
        ({ rule, key }) =>
          sql`(SELECT count(*) FROM rate_events
               WHERE rule = ${rule.name} AND key = ${key} AND at > ${new Date(time - rule.windowMs).toISOString()}) < ${rule.limit}`,
      ),
      sql` AND `,
    );
    const result =
      await sql`INSERT INTO rate_events (id, rule, key, at) SELECT v.id, v.rule, v.key, v.at FROM (${rows}) AS v WHERE ${room}`.execute(
        executor,
      );
    return Number(result.numAffectedRows ?? 0) > 0;
  }

  /** Milliseconds until every count's key has room again (0: it has now). */
  async function waitFor(counts: readonly Count[], time: number): Promise<number> {
    let waitMs = 0;
    for (const { rule, key } of counts) {
      const recent = await db
        .selectFrom("rate_events")
        .select("at")
        .where("rule", "=", rule.name)
        .where("key", "=", key)
        .where("at", ">", new Date(time - rule.windowMs).toISOString())
        .orderBy("at", "desc")
        .limit(rule.limit)
        .execute();
      // The limit-th newest event leaves the window first among those that fill it.
      if (recent.length >= rule.limit) waitMs = Math.max(waitMs, Date.parse(recent.at(-1)!.at) + rule.windowMs - time);
    }
    return waitMs;
  }

  async function takeOnce(counts: readonly Count[], events: readonly RateEventTable[], time: number): Promise<boolean> {
    if (dialect === "sqlite") return countIfRoom(db, counts, events, time);
    const at = new Date(time).toISOString();
    const locks = [...new Map(counts.map(({ rule, key }) => [`${rule.name}\n${key}`, { rule: rule.name, key, touched_at: at }])).entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, lock]) => lock);
    return db.transaction().execute(async (trx) => {
      await trx
        .insertInto("rate_limit_keys")
        .values(locks)
        .onConflict((conflict) => conflict.columns(["rule", "key"]).doUpdateSet({ touched_at: at }))
        .execute();
      return countIfRoom(trx, counts, events, time);
    });
  }

  return {
    /**
     * Counts one event for each of `counts` now, all or none: when any of their keys is at
     * its limit nothing is counted and the answer is the milliseconds until all may go.
     */
    async take(counts: readonly Count[]): Promise<{ waitMs: number } | Taken> {
      for (const { rule } of counts) rules.set(rule.name, rule);
      pruneNowAndThen();
      // An event may leave its window between a refusal and the look at how long to wait: then try again.
      for (;;) {
        const time = now();
        const at = new Date(time).toISOString();
        const events = counts.map(({ rule, key }) => ({ id: timeOrderedId(time), rule: rule.name, key, at }));
        if (await takeOnce(counts, events, time)) return { eventIds: events.map((event) => event.id) };
        const waitMs = await waitFor(counts, time);
        if (waitMs > 0) return { waitMs };
      }
    },
    /** Takes back events counted by `take` (an attempt that turned out not to count). */
    async release(taken: Taken): Promise<void> {
      if (taken.eventIds.length === 0) return;
      await db
        .deleteFrom("rate_events")
        .where("id", "in", [...taken.eventIds])
        .execute();
    },
    /** Forgets every event of `key` under `rule`. */
    async reset(rule: WindowRule, key: string): Promise<void> {
      await db.deleteFrom("rate_events").where("rule", "=", rule.name).where("key", "=", key).execute();
    },
    /** Waits for a pruning under way (the API waits before it closes the database). */
    async settled(): Promise<void> {
      await pruning;
    },
  };
}

export type RateLimits = ReturnType<typeof createRateLimits>;
