import type { Expression, ExpressionBuilder, SqlBool } from "kysely";
import type { Db } from "../db/database.server";
import type { Database } from "../db/tables";

/** Which database runs the statements: the claim differs (see claim below). */
export type ShardDialect = "sqlite" | "postgres";

export type ShardLeaseOptions = {
  db: Db;
  dialect: ShardDialect;
  /** This process's name in engine_shards.owner and engine_instances. */
  instanceId: string;
  /** How long a claim holds without renewal: shorter than a tick, so a dead holder's shards are free by the next one. */
  leaseMs: number;
  /** Instances seen this recently count when shares are worked out. */
  aliveMs: number;
  /** Real time in ms (leases expire in real time even where the engine's own clock is a test's). */
  clock?: () => number;
};

/** Instances not seen for this long are forgotten. */
const FORGET_AFTER_MS = 24 * 3_600_000;

/**
 * Leases on the engine's shards (decision 010). Every statement is one conditional write, so
 * two instances can never hold the same shard at once; a shard whose lease ran out is free
 * again for anyone, and a shard done in a tick is not claimed again in that tick.
 */
export function createShardLeases({ db, dialect, instanceId, leaseMs, aliveMs, clock = Date.now }: ShardLeaseOptions) {
  const at = (ms: number) => new Date(ms).toISOString();
  const free = (tick: number, nowIso: string) => (eb: ExpressionBuilder<Database, "engine_shards">) =>
    eb.and([eb("done_tick", "<", tick), eb.or([eb("lease_until", "is", null), eb("lease_until", "<", nowIso)])]) as Expression<SqlBool>;

  let laidOut = 0;
  /**
   * Makes the shard rows match the setting (decision 026): the missing ones added, those beyond it dropped. Every
   * instance on a database must have the same count; the rows say what this process last laid out.
   */
  async function layOut(shards: number): Promise<void> {
    if (laidOut === shards) return;
    const rows = Array.from({ length: shards }, (_, shard) => ({ shard, done_tick: -1 }));
    for (let start = 0; start < rows.length; start += 500) {
      await db
        .insertInto("engine_shards")
        .values(rows.slice(start, start + 500))
        .onConflict((conflict) => conflict.column("shard").doNothing())
        .execute();
    }
    await db.deleteFrom("engine_shards").where("shard", ">=", shards).execute();
    laidOut = shards;
  }

  return {
    instanceId,

    /** Notes this instance as running and returns its share of a tick: the shards over the instances seen lately. */
    async register(shards: number): Promise<number> {
      await layOut(shards);
      const now = clock();
      await db
        .insertInto("engine_instances")
        .values({ id: instanceId, seen_at: at(now) })
        .onConflict((conflict) => conflict.column("id").doUpdateSet({ seen_at: at(now) }))
        .execute();
      await db
        .deleteFrom("engine_instances")
        .where("seen_at", "<", at(now - FORGET_AFTER_MS))
        .execute();
      const row = await db
        .selectFrom("engine_instances")
        .select((eb) => eb.fn.countAll<number>().as("alive"))
        .where("seen_at", ">=", at(now - aliveMs))
        .executeTakeFirst();
      return Math.ceil(shards / Math.max(1, Number(row?.alive ?? 1)));
    },

    /**
     * Takes up to `limit` shards that are not done in `tick` and free (never leased, released, or
     * their lease ran out), in one statement. On PostgreSQL the candidates are locked with SKIP
     * LOCKED, so instances claiming at the same moment take different shards instead of queueing
     * behind each other's rows and then finding them gone; SQLite runs one writer at a time, so the
     * statement sees every earlier claim without it (and has no row locks to ask for). The candidates
     * are a materialized CTE, read once: as a subquery of the UPDATE, a plan that ran it again per row
     * skipped the rows already taken and took the next ones, far more than `limit` (issue 34).
     */
    async claim(tick: number, limit: number): Promise<number[]> {
      if (limit <= 0) return [];
      const now = clock();
      const available = free(tick, at(now));
      const rows = await db
        .with(
          (cte) => cte("picked").materialized(),
          (query) =>
            query
              .selectFrom("engine_shards")
              .select("shard")
              .where(available)
              .orderBy("shard")
              .limit(limit)
              .$if(dialect === "postgres", (locked) => locked.forUpdate().skipLocked()),
        )
        .updateTable("engine_shards")
        .set({ owner: instanceId, lease_until: at(now + leaseMs) })
        .where("shard", "in", (eb) => eb.selectFrom("picked").select("picked.shard"))
        // Checked again on the row itself: on PostgreSQL another claim may have changed it since the list was read.
        .where(available)
        .returning("shard")
        .execute();
      return rows.map((row) => row.shard).sort((a, b) => a - b);
    },

    /** Extends the lease on the shards this instance still holds for `tick`; returns those. */
    async renew(tick: number, shards: readonly number[]): Promise<number[]> {
      if (shards.length === 0) return [];
      const rows = await db
        .updateTable("engine_shards")
        .set({ lease_until: at(clock() + leaseMs) })
        .where("shard", "in", [...shards])
        .where("owner", "=", instanceId)
        .where("done_tick", "<", tick)
        .returning("shard")
        .execute();
      return rows.map((row) => row.shard);
    },

    /** Marks the shards done for `tick` (the owner stays, as who did them last). */
    async finish(tick: number, shards: readonly number[]): Promise<void> {
      if (shards.length === 0) return;
      await db
        .updateTable("engine_shards")
        .set({ done_tick: tick, lease_until: null })
        .where("shard", "in", [...shards])
        .where("owner", "=", instanceId)
        .where("done_tick", "<", tick)
        .execute();
    },

    /** Gives shards back undone (their work failed), so another instance may take them in this tick. */
    async release(tick: number, shards: readonly number[]): Promise<void> {
      if (shards.length === 0) return;
      await db
        .updateTable("engine_shards")
        .set({ lease_until: null })
        .where("shard", "in", [...shards])
        .where("owner", "=", instanceId)
        .where("done_tick", "<", tick)
        .execute();
    },
  };
}

export type ShardLeases = ReturnType<typeof createShardLeases>;
