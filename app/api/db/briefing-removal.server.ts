import type { Transaction } from "kysely";
import { keepRemoved, takeRemoved } from "./removed-items.server";
import type { BriefingPlaceTable, BriefingTable, Database } from "./tables";

type Trx = Transaction<Database>;

/** Everything deleting a briefing deletes or detaches: undo puts back what still fits. */
type BriefingSnapshot = { briefing: BriefingTable; slots: BriefingPlaceTable[]; messageIds: string[] };

/** Deletes the user's briefing (its place slots go with it), keeping a snapshot for undo. False when there is none. */
export async function removeBriefingWithSnapshot(trx: Trx, userId: string, briefingId: string, now: Date): Promise<boolean> {
  const briefing = await trx
    .selectFrom("briefings")
    .selectAll()
    .where("id", "=", briefingId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!briefing) return false;
  const snapshot: BriefingSnapshot = {
    briefing,
    slots: await trx.selectFrom("briefing_places").selectAll().where("briefing_id", "=", briefingId).execute(),
    messageIds: (
      await trx.selectFrom("messages").select("id").where("briefing_id", "=", briefingId).where("user_id", "=", userId).execute()
    ).map((row) => row.id),
  };
  await keepRemoved(trx, "briefing", briefingId, userId, now, snapshot);
  await trx.deleteFrom("briefings").where("id", "=", briefingId).where("user_id", "=", userId).execute();
  return true;
}

/**
 * Puts a briefing deleted within the window back, with its slots for places that still exist
 * and the inbox's links to it. Null when there is nothing to restore.
 */
export async function restoreRemovedBriefing(trx: Trx, userId: string, briefingId: string, now: Date): Promise<BriefingTable | null> {
  const snapshot = await takeRemoved<BriefingSnapshot>(trx, "briefing", briefingId, userId, now);
  if (!snapshot) return null;
  await trx.insertInto("briefings").values(snapshot.briefing).execute();
  const placeIds = new Set((await trx.selectFrom("places").select("id").where("user_id", "=", userId).execute()).map((row) => row.id));
  const slots = snapshot.slots.filter((slot) => placeIds.has(slot.place_id));
  if (slots.length) await trx.insertInto("briefing_places").values(slots).execute();
  if (snapshot.messageIds.length)
    await trx
      .updateTable("messages")
      .set({ briefing_id: briefingId })
      .where("id", "in", snapshot.messageIds)
      .where("user_id", "=", userId)
      .where("briefing_id", "is", null)
      .execute();
  return snapshot.briefing;
}
