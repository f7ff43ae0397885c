import type { Transaction } from "kysely";
import type { Db } from "../db/database.server";
import type { Database, MessageTable, PlaceTable, SettingsTable, WarningStateTable } from "../db/tables";
import { apiLog } from "../log.server";
import type { OfficialWarnings, WarningsOutcome } from "../warnings/official-warnings.server";
import type { Inbox } from "./inbox.server";
import { inScope, type UserScope } from "./shard-ranges";
import { readFew, recordDecided, refreshWarningAreas, warningLanguage, warningPlace } from "./warning-areas.server";
import { claimWarningWakes, finishWarningWakes } from "./warning-wakes.server";
import { decideWarnings, type UserWarnings, type WarningDecision } from "./warning-decision.server";

type WarningAlertDeps = { db: Db; inbox: Inbox; warnings: OfficialWarnings; now: () => Date; refreshSpread?: boolean };

/** Users decided together: a pass goes on batch after batch until none is woken. */
const BATCH_USERS = 1000;
/** Users whose messages and states are written in one transaction. */
const USERS_PER_TRANSACTION = 200;
/** How long what a user was told of a warning is kept after it was cleared. */
const CLEARED_MEMORY_MS = 7 * 24 * 3_600_000;

/** What a pass wrote, and the users whose warnings it decided. */
export type WarningPassResult = { messages: number; decided: string[] };

/**
 * Official warnings as messages (issue 32, item 4), change-driven (decision 026): in each engine pass the warnings
 * areas due are read again (warning-areas), the users at places whose answer changed are woken, and the woken users
 * of the pass's shards are decided: each hears of each warning once when it is issued, once per update and once when
 * it is over (decideWarnings). Messages are keyed per user, warning and CAP message, and written in one transaction
 * with the per-user warning states, so a repeated pass, a restart or a second instance never tells one twice.
 * Decision 023.
 */
export function createWarningAlertService(deps: WarningAlertDeps) {
  return {
    /** One pass for the users in `scope` (an engine instance's shards). */
    runAll: (scope: UserScope = null) => warningPass(deps, scope),
  };
}

export type WarningAlertService = ReturnType<typeof createWarningAlertService>;

async function warningPass(deps: WarningAlertDeps, scope: UserScope): Promise<WarningPassResult> {
  const { db, now } = deps;
  const current = now();
  const at = current.toISOString();
  await forgetCleared(db, current, scope);
  await refreshWarningAreas(deps, current, scope);
  const result: WarningPassResult = { messages: 0, decided: [] };
  for (;;) {
    const userIds = await claimWarningWakes(db, at, scope, BATCH_USERS);
    if (userIds.length === 0) return result;
    result.messages += await decideUsers(deps, userIds, current);
    await finishWarningWakes(db, userIds, at);
    result.decided.push(...userIds);
  }
}

/** Decides these users' warnings on the answers at their places, writes and publishes what that calls for. */
async function decideUsers(deps: WarningAlertDeps, userIds: string[], current: Date): Promise<number> {
  const { db, inbox, warnings } = deps;
  const users = await usersWithPlaces(db, userIds);
  if (users.size === 0) return 0;
  const states = await statesOf(db, userIds);
  const answers = await answersFor(db, warnings, users);
  const decisions: WarningDecision[] = [];
  for (const [userId, { settings, places }] of users) {
    const input: UserWarnings = {
      userId,
      settings,
      places,
      answers: new Map(places.flatMap((place) => (answers.has(place.id) ? [[place.id, answers.get(place.id)!.outcome] as const] : []))),
      states: states.get(userId) ?? [],
    };
    const decision = decideWarnings(input, current);
    if (decision) decisions.push(decision);
  }
  const written = await writeWarningDecisions(db, inbox, decisions);
  for (const row of written) inbox.publish(row);
  await recordDecided(deps, [...answers.values()], current);
  return written.length;
}

/** These users' places, by user in their order, with the user's settings. */
async function usersWithPlaces(db: Db, userIds: string[]) {
  const users = new Map<string, { settings: SettingsTable; places: PlaceTable[] }>();
  for (let start = 0; start < userIds.length; start += 500) {
    const chunk = userIds.slice(start, start + 500);
    const rows = await db.selectFrom("places").selectAll().where("user_id", "in", chunk).orderBy("user_id").orderBy("position").execute();
    if (rows.length === 0) continue;
    const settings = await db.selectFrom("settings").selectAll().where("user_id", "in", chunk).execute();
    const settingsOf = new Map(settings.map((row) => [row.user_id, row]));
    for (const place of rows) {
      const own = users.get(place.user_id);
      if (own) own.places.push(place);
      else {
        const row = settingsOf.get(place.user_id);
        if (row) users.set(place.user_id, { settings: row, places: [place] });
      }
    }
  }
  return users;
}

async function statesOf(db: Db, userIds: string[]): Promise<Map<string, WarningStateTable[]>> {
  const byUser = new Map<string, WarningStateTable[]>();
  for (let start = 0; start < userIds.length; start += 500) {
    const rows = await db
      .selectFrom("warning_states")
      .selectAll()
      .where("user_id", "in", userIds.slice(start, start + 500))
      .execute();
    for (const row of rows) {
      const states = byUser.get(row.user_id);
      if (states) states.push(row);
      else byUser.set(row.user_id, [row]);
    }
  }
  return byUser;
}

/** What a user was told of warnings cleared a week ago and more is forgotten. */
async function forgetCleared(db: Db, current: Date, scope: UserScope): Promise<void> {
  await db
    .deleteFrom("warning_states")
    .where("cleared_at", "<", new Date(current.getTime() - CLEARED_MEMORY_MS).toISOString())
    .$if(scope !== null, (query) => query.where((eb) => inScope(eb, "user_id", scope!)))
    .execute();
}

/** When each of these areas' answer the engine knows was fetched: a decision takes no older one. */
async function fetchedTimes(db: Db, areaKeys: string[]): Promise<Map<string, Date>> {
  const times = new Map<string, Date>();
  for (let start = 0; start < areaKeys.length; start += 500) {
    const rows = await db
      .selectFrom("warning_areas")
      .select(["area_key", "fetched_at"])
      .where("area_key", "in", areaKeys.slice(start, start + 500))
      .execute();
    for (const row of rows) if (row.fetched_at) times.set(row.area_key, new Date(row.fetched_at));
  }
  return times;
}

/**
 * The layer's answer for every covered place, by place id, in its owner's language, with its area. Places that ask
 * the same (one area, one spot and name, one language) share one question; a few are asked at once. The layer never
 * throws: a service down is an "unavailable" answer.
 */
async function answersFor(
  db: Db,
  warnings: OfficialWarnings,
  users: Map<string, { settings: SettingsTable; places: PlaceTable[] }>,
): Promise<Map<string, { place: PlaceTable; areaKey: string; outcome: WarningsOutcome }>> {
  const questions = new Map<string, { place: PlaceTable; areaKey: string; language: string; places: PlaceTable[] }>();
  for (const { settings, places } of users.values()) {
    const language = warningLanguage(settings.language);
    for (const place of places) {
      const coverage = warnings.coverage(warningPlace(place));
      if (!coverage.covered) continue;
      const key = JSON.stringify([coverage.areaKey, place.latitude, place.longitude, place.name, place.admin1, language]);
      const question = questions.get(key);
      if (question) question.places.push(place);
      else questions.set(key, { place, areaKey: coverage.areaKey, language, places: [place] });
    }
  }
  const asked = [...questions.values()];
  const fetched = await fetchedTimes(db, [...new Set(asked.map((question) => question.areaKey))]);
  const outcomes = await readFew(asked, ({ place, areaKey, language }) =>
    warnings.warningsFor(warningPlace(place), language, fetched.get(areaKey)),
  );
  const answers = new Map<string, { place: PlaceTable; areaKey: string; outcome: WarningsOutcome }>();
  asked.forEach(({ areaKey, places }, index) => {
    for (const place of places) answers.set(place.id, { place, areaKey, outcome: outcomes[index]! });
  });
  return answers;
}

type Trx = Transaction<Database>;

/**
 * Writes users' decisions, up to USERS_PER_TRANSACTION a transaction: their messages with their
 * warning states, all or nothing. A transaction that fails is tried again user by user, so one
 * user's write that cannot succeed never costs the others theirs; when every user's fails (the
 * database is down), the error goes to the engine as the alerts' do.
 */
export async function writeWarningDecisions(db: Db, inbox: Inbox, decisions: WarningDecision[]): Promise<MessageTable[]> {
  const written: MessageTable[] = [];
  for (let start = 0; start < decisions.length; start += USERS_PER_TRANSACTION) {
    const chunk = decisions.slice(start, start + USERS_PER_TRANSACTION);
    try {
      written.push(...(await db.transaction().execute((trx) => writeChunk(trx, inbox, chunk))));
    } catch (error) {
      if (chunk.length === 1) throw error;
      let failures = 0;
      for (const decision of chunk) {
        try {
          written.push(...(await db.transaction().execute((trx) => writeChunk(trx, inbox, [decision]))));
        } catch (alone) {
          failures++;
          apiLog.error({ err: alone, userId: decision.userId }, "[bot] could not write a user's official warnings:");
        }
      }
      if (failures === chunk.length) throw error;
    }
  }
  return written;
}

async function writeChunk(trx: Trx, inbox: Inbox, decisions: WarningDecision[]): Promise<MessageTable[]> {
  const inserted = await inbox.writeMany(
    decisions.flatMap((decision) => decision.messages),
    trx,
  );
  const saved = decisions.flatMap((decision) => decision.saved);
  if (saved.length > 0) {
    await trx
      .insertInto("warning_states")
      .values(saved)
      .onConflict((conflict) =>
        conflict.columns(["user_id", "warning_id"]).doUpdateSet((eb) => ({
          message_id: eb.ref("excluded.message_id"),
          issued_id: eb.ref("excluded.issued_id"),
          sent: eb.ref("excluded.sent"),
          place_ids: eb.ref("excluded.place_ids"),
          content: eb.ref("excluded.content"),
          told_at: eb.ref("excluded.told_at"),
          cleared_at: eb.ref("excluded.cleared_at"),
        })),
      )
      .execute();
  }
  for (const decision of decisions) {
    if (decision.forgotten.length === 0) continue;
    await trx.deleteFrom("warning_states").where("user_id", "=", decision.userId).where("warning_id", "in", decision.forgotten).execute();
  }
  return inserted;
}
