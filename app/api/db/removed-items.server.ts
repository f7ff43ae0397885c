import type { Transaction } from "kysely";
import type { Database } from "./tables";

/** How long something removed can be put back (the Undo of places, messages and briefings). */
export const RESTORE_WINDOW_MS = 10 * 60_000;

/** What can be removed with undo; each kind keeps its own snapshot shape. */
export type RemovedKind = "place" | "message" | "briefing";

type Trx = Transaction<Database>;

/** Keeps what removing an item took with it, for `takeRemoved` within the window; drops the user's expired ones. */
export async function keepRemoved(trx: Trx, kind: RemovedKind, itemId: string, userId: string, now: Date, snapshot: unknown) {
  const expired = new Date(now.getTime() - RESTORE_WINDOW_MS).toISOString();
  await trx.deleteFrom("removed_items").where("user_id", "=", userId).where("removed_at", "<", expired).execute();
  await trx
    .insertInto("removed_items")
    .values({ kind, item_id: itemId, user_id: userId, removed_at: now.toISOString(), snapshot: JSON.stringify(snapshot) })
    .onConflict((conflict) => conflict.columns(["kind", "item_id"]).doNothing())
    .execute();
}

/** The snapshot of an item the user removed within the window, taken out of the store; null when there is none. */
export async function takeRemoved<Snapshot>(
  trx: Trx,
  kind: RemovedKind,
  itemId: string,
  userId: string,
  now: Date,
): Promise<Snapshot | null> {
  const removed = await trx
    .selectFrom("removed_items")
    .select("snapshot")
    .where("kind", "=", kind)
    .where("item_id", "=", itemId)
    .where("user_id", "=", userId)
    .where("removed_at", ">=", new Date(now.getTime() - RESTORE_WINDOW_MS).toISOString())
    .executeTakeFirst();
  if (!removed) return null;
  await trx.deleteFrom("removed_items").where("kind", "=", kind).where("item_id", "=", itemId).execute();
  return JSON.parse(removed.snapshot) as Snapshot;
}
