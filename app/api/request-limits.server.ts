import { sql } from "kysely";
import type { Db } from "./db/database.server";
import { createOutageLog } from "./db/outage-log.server";
import { apiError } from "./errors.server";

/**
 * The general limits per client address (decision 014): requests of any kind, and mutations,
 * each per minute. Every instance counts in memory and decides at once, with no database
 * work on a request's path; about once a second it adds what it counted to the database
 * (`request_counts`, one row per rule, address and minute) and reads back the sums for the
 * addresses it has seen, so that the limit holds across instances. The bound: an address can
 * get past the limit by what the other instances admitted for it since this one last read
 * the sums (one sync interval and a round trip; an address new to an instance starts a sync
 * within 20 ms, so its first requests there are let through on that instance's count alone).
 *
 * A minute is not a fixed bucket: the count of the minute before weighs in by the part of it
 * that still lies within the last 60 s (a sliding-window estimate), so a client cannot send
 * the limit at the end of one minute and again at the start of the next.
 */

export type LimitRule = "requests" | "mutations";

/** Requests (any kind) and mutations per client address and minute; 0 turns that limit off. */
export type RequestLimitConfig = { requestsPerMinute: number; mutationsPerMinute: number };

export type LimitVerdict = { limited: false } | { limited: true; retryAfterSeconds: number };

export const WINDOW_MS = 60_000;
const SYNC_EVERY_MS = 1_000;
/** Addresses per statement when reading the sums back. */
const KEYS_PER_READ = 500;

type Entry = {
  period: number;
  /** This instance's count in `period`. */
  local: number;
  /** The other instances' count in `period`, as last read. */
  others: number;
  /** Every instance's count in the period before. */
  previous: number;
};

const ADMITTED: LimitVerdict = { limited: false };

/** Milliseconds until the sliding estimate falls below `limit` again, no request counted meanwhile. */
export function waitUntilBelow(limit: number, current: number, previous: number, elapsedMs: number): number {
  if (current >= limit) {
    // Not within this minute: in the next one, this minute's count fades out as time goes on.
    return WINDOW_MS - elapsedMs + WINDOW_MS * (1 - limit / Math.max(current, 1)) + 1;
  }
  // The minute before fades: previous · (1 − t / W) + current < limit.
  return Math.max(0, WINDOW_MS * (1 - (limit - current) / previous) - elapsedMs + 1);
}

export function createRequestLimits(config: RequestLimitConfig, { db, now = Date.now }: { db: Db | null; now?: () => number }) {
  const limits: Record<LimitRule, number> = { requests: config.requestsPerMinute, mutations: config.mutationsPerMinute };
  const entries = new Map<string, Entry>();
  /** Counted but not yet added to the database: "rule\nkey\nperiod" → hits. */
  let unsent = new Map<string, number>();
  let syncing: Promise<void> | null = null;
  let again = false;
  let lastPrunedPeriod = 0;
  const log = createOutageLog("[request-limits]", "could not share the counts");

  function take(rule: LimitRule, key: string): LimitVerdict {
    const limit = limits[rule];
    if (limit <= 0) return ADMITTED;
    const time = now();
    const period = Math.floor(time / WINDOW_MS);
    const id = `${rule}\n${key}`;
    let entry = entries.get(id);
    if (!entry || entry.period !== period) {
      const previous = entry && entry.period === period - 1 ? entry.local + entry.others : 0;
      const seen = entry !== undefined;
      entry = { period, local: 0, others: 0, previous };
      entries.set(id, entry);
      // An address this instance has not seen lately: learn what the others counted for it now.
      if (!seen) syncSoon();
    }
    const elapsed = time - period * WINDOW_MS;
    const current = entry.local + entry.others;
    if (entry.previous * (1 - elapsed / WINDOW_MS) + current >= limit) {
      return { limited: true, retryAfterSeconds: Math.max(1, Math.ceil(waitUntilBelow(limit, current, entry.previous, elapsed) / 1000)) };
    }
    entry.local++;
    const unsentId = `${id}\n${period}`;
    unsent.set(unsentId, (unsent.get(unsentId) ?? 0) + 1);
    return ADMITTED;
  }

  async function sync() {
    if (!db) return;
    const period = Math.floor(now() / WINDOW_MS);
    const sending = unsent;
    unsent = new Map();
    const rows = [...sending].map(([id, hits]) => {
      const [rule, key, rowPeriod] = id.split("\n") as [string, string, string];
      return { rule, key, period: Number(rowPeriod), hits };
    });
    try {
      if (rows.length > 0) {
        await db
          .insertInto("request_counts")
          .values(rows)
          .onConflict((conflict) =>
            conflict.columns(["rule", "key", "period"]).doUpdateSet({ hits: sql`request_counts.hits + excluded.hits` }),
          )
          .execute();
      }
    } catch (error) {
      // Kept for the next round: the limits hold per instance meanwhile.
      for (const [id, hits] of sending) unsent.set(id, (unsent.get(id) ?? 0) + hits);
      throw error;
    }
    for (const [id, entry] of entries) if (entry.period < period - 1) entries.delete(id);
    const keys = [...new Set([...entries.keys()].map((id) => id.slice(id.indexOf("\n") + 1)))];
    for (let start = 0; start < keys.length; start += KEYS_PER_READ) {
      const sums = await db
        .selectFrom("request_counts")
        .select(["rule", "key", "period", "hits"])
        .where("period", ">=", period - 1)
        .where("key", "in", keys.slice(start, start + KEYS_PER_READ))
        .execute();
      for (const row of sums) {
        const entry = entries.get(`${row.rule}\n${row.key}`);
        if (!entry) continue;
        if (row.period === entry.period) {
          // The sum holds what this instance had sent; what it counted since is not in it yet.
          const pending = unsent.get(`${row.rule}\n${row.key}\n${row.period}`) ?? 0;
          entry.others = Math.max(entry.others, row.hits - (entry.local - pending));
        } else if (row.period === entry.period - 1) {
          entry.previous = Math.max(entry.previous, row.hits);
        }
      }
    }
    if (period - 2 > lastPrunedPeriod) {
      lastPrunedPeriod = period - 2;
      await db
        .deleteFrom("request_counts")
        .where("period", "<", period - 1)
        .execute();
    }
  }

  let closed = false;
  function runSync() {
    // After close the database is about to go (or gone): nothing more is sent.
    if (closed) return;
    if (syncing) {
      again = true;
      return;
    }
    syncing = sync()
      .then(log.succeeded, log.failed)
      .finally(() => {
        syncing = null;
        if (again) {
          again = false;
          runSync();
        }
      });
  }

  // First sightings start a sync soon, gathered: many new addresses at once cost one round.
  let soon: NodeJS.Timeout | null = null;
  function syncSoon() {
    if (!db || soon) return;
    soon = setTimeout(() => {
      soon = null;
      runSync();
    }, 20);
    soon.unref();
  }

  const timer = db && (limits.requests > 0 || limits.mutations > 0) ? setInterval(runSync, SYNC_EVERY_MS) : null;
  timer?.unref();

  return {
    /** Counts one request of `rule` from `key` (a client address) and says whether it may go on. */
    take,
    /** Stops sharing; what is counted and not yet sent is sent first (the API closes the database after). */
    async close() {
      closed = true;
      if (timer) clearInterval(timer);
      if (soon) clearTimeout(soon);
      again = false;
      await syncing;
      if (db && unsent.size > 0) await sync().catch(log.failed);
    },
  };
}

export type RequestLimits = ReturnType<typeof createRequestLimits>;

/** The limits off: what the API runs with unless told (the server reads REQUEST_LIMIT and MUTATION_LIMIT). */
export const NO_REQUEST_LIMITS: RequestLimitConfig = { requestsPerMinute: 0, mutationsPerMinute: 0 };

/** The error a refused request or operation gets (as a refused log-in's: RATE_LIMITED with retryAfterSeconds). */
export const tooManyRequests = (retryAfterSeconds: number, extensions: Record<string, unknown> = {}) =>
  apiError("RATE_LIMITED", `Too many requests; try again in ${retryAfterSeconds} seconds`, { retryAfterSeconds, ...extensions });
