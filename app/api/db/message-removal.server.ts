import type { Transaction } from "kysely";
import { keepRemoved, takeRemoved } from "./removed-items.server";
import type { Database, MessageTable } from "./tables";

type Trx = Transaction<Database>;

/** Deletes the user's message, keeping it for undo. False when there is none. */
export async function removeMessageWithSnapshot(trx: Trx, userId: string, messageId: string, now: Date): Promise<boolean> {
  const message = await trx.selectFrom("messages").selectAll().where("id", "=", messageId).where("user_id", "=", userId).executeTakeFirst();
  if (!message) return false;
  await keepRemoved(trx, "message", messageId, userId, now, message);
  await trx.deleteFrom("messages").where("id", "=", messageId).where("user_id", "=", userId).execute();
  return true;
}

/**
 * Puts a message deleted within the window back in the inbox, where its time puts it; links
 * to a place, briefing or rule removed meanwhile are dropped. Null when there is nothing to restore.
 */
export async function restoreRemovedMessage(trx: Trx, userId: string, messageId: string, now: Date): Promise<MessageTable | null> {
  const message = await takeRemoved<MessageTable>(trx, "message", messageId, userId, now);
  if (!message) return null;
  const exists = async (table: "places" | "briefings" | "alert_rules", id: string | null) =>
    id !== null && Boolean(await trx.selectFrom(table).select("id").where("id", "=", id).where("user_id", "=", userId).executeTakeFirst());
  const row: MessageTable = {
    ...message,
    place_id: (await exists("places", message.place_id)) ? message.place_id : null,
    briefing_id: (await exists("briefings", message.briefing_id)) ? message.briefing_id : null,
    alert_rule_id: (await exists("alert_rules", message.alert_rule_id)) ? message.alert_rule_id : null,
  };
  const inserted = await trx
    .insertInto("messages")
    .values(row)
    .onConflict((conflict) => conflict.doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0 ? row : null;
}
