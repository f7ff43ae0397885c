import type { Kysely } from "kysely";
import type { Db } from "../db/database.server";
import type { Database } from "../db/tables";
import { WAKE_NOW } from "./rule-wakes.server";
import { inScope, type UserScope } from "./shard-ranges";

/**
 * Users whose official warnings must be decided again (decision 026): a place or setting of theirs changed, they are
 * new, or the answer for one of their places changed. An earlier claim is overwritten, so a pass deciding them
 * meanwhile leaves the wake for the next.
 */
export async function wakeWarnings(db: Kysely<Database>, userIds: readonly string[]): Promise<void> {
  const unique = [...new Set(userIds)];
  for (let start = 0; start < unique.length; start += 500) {
    await db
      .insertInto("warning_wakes")
      .values(unique.slice(start, start + 500).map((user_id) => ({ user_id, wake_at: WAKE_NOW })))
      .onConflict((conflict) => conflict.column("user_id").doUpdateSet({ wake_at: WAKE_NOW }))
      .execute();
  }
}

/**
 * Takes up to `limit` woken users of `scope` for this pass: their wake becomes `current` (still due, so a pass that
 * dies leaves them to the next); finishWarningWakes then removes it where nobody woke them again meanwhile.
 */
export async function claimWarningWakes(db: Db, current: string, scope: UserScope, limit: number): Promise<string[]> {
  const due = await db
    .selectFrom("warning_wakes")
    .select("user_id")
    .where("wake_at", "<=", current)
    .$if(scope !== null, (query) => query.where((eb) => inScope(eb, "user_id", scope!)))
    .orderBy("wake_at")
    .limit(limit)
    .execute();
  if (due.length === 0) return [];
  const claimed = await db
    .updateTable("warning_wakes")
    .set({ wake_at: current })
    .where(
      "user_id",
      "in",
      due.map((row) => row.user_id),
    )
    .where("wake_at", "<=", current)
    .returning("user_id")
    .execute();
  return claimed.map((row) => row.user_id).sort();
}

/** Ends the wakes of users decided in this pass, except those woken again since they were claimed. */
export async function finishWarningWakes(db: Db, userIds: readonly string[], claimedAt: string): Promise<void> {
  for (let start = 0; start < userIds.length; start += 500) {
    await db
      .deleteFrom("warning_wakes")
      .where("user_id", "in", userIds.slice(start, start + 500))
      .where("wake_at", "=", claimedAt)
      .execute();
  }
}
