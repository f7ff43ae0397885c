import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";

/** How many shards the users are cut into (decision 010); changing it is a migration. */
export const ENGINE_SHARDS = 16;

const DIGITS = "0123456789abcdef";

/** Users whose id sorts in [from, to); null is open-ended. */
export type UserRange = { from: string | null; to: string | null };

/** The users an engine pass works on: some ranges, or null for every user. */
export type UserScope = readonly UserRange[] | null;

/**
 * The ranges of ids these shards cover. Shard n holds the ids that start with the n-th hex digit
 * (user ids are random UUIDs, so the shards are even); the first and last are open-ended, so every
 * string falls in exactly one shard. Neighbouring shards merge into one range, and all of them into
 * null: an instance alone filters nothing.
 */
export function scopeOf(shards: readonly number[]): UserScope {
  const sorted = [...new Set(shards)].sort((a, b) => a - b);
  const ranges: UserRange[] = [];
  let start: number | null = null;
  for (let index = 0; index < sorted.length; index++) {
    const shard = sorted[index]!;
    start ??= shard;
    if (sorted[index + 1] === shard + 1) continue;
    ranges.push({ from: start === 0 ? null : DIGITS[start]!, to: shard === ENGINE_SHARDS - 1 ? null : DIGITS[shard + 1]! });
    start = null;
  }
  return ranges.length === 1 && ranges[0]!.from === null && ranges[0]!.to === null ? null : ranges;
}

/** The shard a user id belongs to (tests and logs; queries use the ranges). */
export function shardOf(userId: string): number {
  for (let shard = ENGINE_SHARDS - 1; shard > 0; shard--) if (userId >= DIGITS[shard]!) return shard;
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
