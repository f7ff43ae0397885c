import type { Transaction } from "kysely";
import type { Db } from "../db/database.server";
import type { AlertEpisodeTable, AlertStateTable, Database, MessageTable } from "../db/tables";
import type { Decision } from "./alert-decision.server";
import type { Inbox } from "./inbox.server";

type Trx = Transaction<Database>;

/**
 * Writes decisions (a rule's, whole: its one alert with every episode it tells) in transactions of
 * up to 500: messages with their episodes and states, all or nothing, so a crash mid-pass loses
 * nothing (the next pass decides again).
 */
export async function writeDecisions(db: Db, inbox: Inbox, decisions: Decision[]): Promise<MessageTable[]> {
  const written: MessageTable[] = [];
  for (let start = 0; start < decisions.length; start += 500) {
    const { messages, opened, changed, states } = gathered(decisions.slice(start, start + 500));
    const rows = await db.transaction().execute(async (trx) => {
      const inserted = await inbox.writeMany(messages, trx);
      await insertEpisodes(trx, opened);
      await updateEpisodes(trx, changed);
      await saveStates(trx, states);
      return inserted;
    });
    written.push(...rows);
  }
  return written;
}

/** A chunk's decisions as one write of each kind. */
function gathered(chunk: Decision[]) {
  return {
    messages: chunk.flatMap((decision) => decision.messages),
    opened: chunk.flatMap((decision) => decision.opened),
    changed: chunk.flatMap((decision) => [...decision.moved, ...decision.closed]),
    states: chunk.flatMap((decision) => decision.states),
  };
}

async function insertEpisodes(trx: Trx, opened: AlertEpisodeTable[]): Promise<void> {
  if (opened.length === 0) return;
  await trx
    .insertInto("alert_episodes")
    .values(opened)
    // Already known (another process, or an episode closed and seen again): it is open, as seen now.
    .onConflict((conflict) =>
      conflict.columns(["user_id", "rule_key", "location_key", "start"]).doUpdateSet((eb) => ({
        window_from: eb.ref("excluded.window_from"),
        window_to: eb.ref("excluded.window_to"),
        closed_at: null,
      })),
    )
    .execute();
}

/** Episodes moved or closed: their window and closing time, one row at a time. */
async function updateEpisodes(trx: Trx, rows: AlertEpisodeTable[]): Promise<void> {
  for (const row of rows) {
    await trx
      .updateTable("alert_episodes")
      .set({ window_from: row.window_from, window_to: row.window_to, closed_at: row.closed_at })
      .where("user_id", "=", row.user_id)
      .where("rule_key", "=", row.rule_key)
      .where("location_key", "=", row.location_key)
      .where("start", "=", row.start)
      .execute();
  }
}

async function saveStates(trx: Trx, states: AlertStateTable[]): Promise<void> {
  if (states.length === 0) return;
  await trx
    .insertInto("alert_states")
    .values(states)
    .onConflict((conflict) =>
      conflict.columns(["rule_id", "place_id"]).doUpdateSet((eb) => ({
        state: eb.ref("excluded.state"),
        episode_start: eb.ref("excluded.episode_start"),
        last_triggered_at: eb.ref("excluded.last_triggered_at"),
      })),
    )
    .execute();
}

/** Notes when the engine first read these rules (they are new no more), 500 at a time. */
export async function markWatched(db: Db, ruleIds: string[], current: Date): Promise<void> {
  for (let start = 0; start < ruleIds.length; start += 500) {
    await db
      .updateTable("alert_rules")
      .set({ watched_since: current.toISOString() })
      .where("id", "in", ruleIds.slice(start, start + 500))
      .where("watched_since", "is", null)
      .execute();
  }
}
