import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";

/** How many shards the users are cut into unless the ENGINE_SHARDS setting says otherwise (decision 010, 026). */
export const ENGINE_SHARDS = 16;

/** The most shards there can be: a shard's bounds are 4-hex-digit prefixes of user ids. */
export const MAX_ENGINE_SHARDS = 4096;

/** Users whose id sorts in [from, to); null is open-ended. */
export type UserRange = { from: string | null; to: string | null };

/** The users an engine pass works on: some ranges, or null for every user. */
export type UserScope = readonly UserRange[] | null;

/**
 * Where shard `shard` of `count` starts: a prefix of user ids (random UUIDs, lowercase hex, so shards are even), its
 * trailing zeros dropped (16 shards are cut at one hex digit, as they always were); null for the first shard.
 */
function lowerBound(shard: number, count: number): string | null {
  if (shard === 0) return null;
  const prefix = Math.floor((shard * 0x10000) / count)
    .toString(16)
    .padStart(4, "0");
  return prefix.replace(/0+$/, "") || "0";
}

/**
 * The ranges of ids these shards (of `count`) cover. The first and last are open-ended, so every string falls in
 * exactly one shard. Neighbouring shards merge into one range, and all of them into null: an instance alone filters nothing.
 */
export function scopeOf(shards: readonly number[], count = ENGINE_SHARDS): UserScope {
  const sorted = [...new Set(shards)].sort((a, b) => a - b);
  const ranges: UserRange[] = [];
  let start: number | null = null;
  for (let index = 0; index < sorted.length; index++) {
    const shard = sorted[index]!;
    start ??= shard;
    if (sorted[index + 1] === shard + 1) continue;
    ranges.push({ from: lowerBound(start, count), to: shard === count - 1 ? null : lowerBound(shard + 1, count) });
    start = null;
  }
  return ranges.length === 1 && ranges[0]!.from === null && ranges[0]!.to === null ? null : ranges;
}

/** The shard (of `count`) a user id belongs to (tests and logs; queries use the ranges). */
export function shardOf(userId: string, count = ENGINE_SHARDS): number {
  for (let shard = count - 1; shard > 0; shard--) if (userId >= lowerBound(shard, count)!) return shard;
  return 0;
}

/** `column` is a user id inside one of the ranges (an empty scope matches nobody). */
export function inScope<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  column: string,
  ranges: readonly UserRange[],
): Expression<SqlBool> {
  const ref = sql.ref<string>(column);
  return eb.or(
    ranges.map((range) =>
      eb.and([...(range.from === null ? [] : [eb(ref, ">=", range.from)]), ...(range.to === null ? [] : [eb(ref, "<", range.to)])]),
    ),
  );
}
