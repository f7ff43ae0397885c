import type { Transaction } from "kysely";
import { keepRemoved, takeRemoved } from "./removed-items.server";
import type { AlertRuleTable, AlertStateTable, BriefingPlaceTable, Database, PlaceTable } from "./tables";
import { wakeRulesOf } from "../bot/rule-wakes.server";
import { wakeWarnings } from "../bot/warning-wakes.server";

export { RESTORE_WINDOW_MS } from "./removed-items.server";

/** Everything removing a place deletes or detaches: undo puts back what still fits. */
type PlaceSnapshot = {
  place: PlaceTable;
  briefingPlaces: BriefingPlaceTable[];
  alertRules: AlertRuleTable[];
  alertStates: AlertStateTable[];
  messageIds: string[];
};

type Trx = Transaction<Database>;

async function renumber(trx: Trx, userId: string) {
  const rows = await trx.selectFrom("places").select("id").where("user_id", "=", userId).orderBy("position").execute();
  await Promise.all(rows.map((row, position) => trx.updateTable("places").set({ position }).where("id", "=", row.id).execute()));
}

/** Deletes the user's place (its rules and briefing slots go with it), keeping a snapshot for undo. False when there is none. */
export async function removePlaceWithSnapshot(trx: Trx, userId: string, placeId: string, now: Date): Promise<boolean> {
  const place = await trx.selectFrom("places").selectAll().where("id", "=", placeId).where("user_id", "=", userId).executeTakeFirst();
  if (!place) return false;
  const snapshot: PlaceSnapshot = {
    place,
    briefingPlaces: await trx.selectFrom("briefing_places").selectAll().where("place_id", "=", placeId).execute(),
    alertRules: await trx.selectFrom("alert_rules").selectAll().where("place_id", "=", placeId).where("user_id", "=", userId).execute(),
    alertStates: await trx.selectFrom("alert_states").selectAll().where("place_id", "=", placeId).execute(),
    messageIds: (await trx.selectFrom("messages").select("id").where("place_id", "=", placeId).where("user_id", "=", userId).execute()).map(
      (row) => row.id,
    ),
  };
  await keepRemoved(trx, "place", placeId, userId, now, snapshot);
  await trx.deleteFrom("places").where("id", "=", placeId).where("user_id", "=", userId).execute();
  await renumber(trx, userId);
  // A warning told for this place may be over for the user now, or to be forgotten (decision 023).
  await wakeWarnings(trx, [userId]);
  return true;
}

/**
 * Puts a place removed within the window back where it was, with its rules, its slots in
 * briefings that still exist and the inbox's links to it. Null when there is nothing to restore.
 */
export async function restoreRemovedPlace(trx: Trx, userId: string, placeId: string, now: Date): Promise<PlaceTable | null> {
  const snapshot = await takeRemoved<PlaceSnapshot>(trx, "place", placeId, userId, now);
  if (!snapshot) return null;

  const others = await trx.selectFrom("places").select(["id"]).where("user_id", "=", userId).orderBy("position").execute();
  const ids = others.map((row) => row.id);
  ids.splice(Math.min(snapshot.place.position, ids.length), 0, placeId);
  await trx.insertInto("places").values(snapshot.place).execute();
  await Promise.all(ids.map((id, position) => trx.updateTable("places").set({ position }).where("id", "=", id).execute()));

  if (snapshot.alertRules.length) await trx.insertInto("alert_rules").values(snapshot.alertRules).execute();
  // The place is back, and its rules: the engine reads the user's rules again (decision 026).
  await wakeRulesOf(trx, userId);
  await wakeWarnings(trx, [userId]);
  const briefingIds = new Set(
    (await trx.selectFrom("briefings").select("id").where("user_id", "=", userId).execute()).map((row) => row.id),
  );
  const slots = snapshot.briefingPlaces.filter((slot) => briefingIds.has(slot.briefing_id));
  if (slots.length) await trx.insertInto("briefing_places").values(slots).execute();
  const ruleIds = new Set((await trx.selectFrom("alert_rules").select("id").where("user_id", "=", userId).execute()).map((row) => row.id));
  const states = snapshot.alertStates.filter((state) => ruleIds.has(state.rule_id));
  if (states.length) await trx.insertInto("alert_states").values(states).execute();
  if (snapshot.messageIds.length)
    await trx
      .updateTable("messages")
      .set({ place_id: placeId })
      .where("id", "in", snapshot.messageIds)
      .where("user_id", "=", userId)
      .where("place_id", "is", null)
      .execute();
  return { ...snapshot.place, position: ids.indexOf(placeId) };
}
