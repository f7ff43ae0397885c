import type { Transaction } from "kysely";
import type { Db } from "../db/database.server";
import type { Database, MessageTable, PlaceTable, SettingsTable, WarningStateTable } from "../db/tables";
import { apiLog } from "../log.server";
import type { OfficialWarnings, WarningPlace, WarningsOutcome } from "../warnings/official-warnings.server";
import type { Inbox } from "./inbox.server";
import { inScope, type UserScope } from "./shard-ranges";
import { LOCALE_OF } from "./texts.server";
import { decideWarnings, type UserWarnings, type WarningDecision } from "./warning-decision.server";

type WarningAlertDeps = { db: Db; inbox: Inbox; warnings: OfficialWarnings; now: () => Date };

/** Answers asked of the warnings layer at once in a pass (each new area is a request to a service). */
const CONCURRENT_ANSWERS = 8;
/** Users whose messages and states are written in one transaction. */
const USERS_PER_TRANSACTION = 200;
/** How long what a user was told of a warning is kept after it was cleared. */
const CLEARED_MEMORY_MS = 7 * 24 * 3_600_000;

/**
 * Official warnings as messages (issue 32, item 4): in each engine pass, every place of the
 * users in scope is looked up in the warnings layer (which fetches per area and shares the
 * answer), and each user hears of each warning once when it is issued, once per update and once
 * when it is over (decideWarnings). Messages are keyed per user, warning and CAP message, and
 * written in one transaction with the per-user warning states, so a repeated pass, a restart or
 * a second instance never tells one twice. Decision 023.
 */
export function createWarningAlertService(deps: WarningAlertDeps) {
  return {
    /** One pass over the places of the users in `scope` (an engine instance's shards); returns the messages written. */
    runAll: (scope: UserScope = null) => warningPass(deps, scope),
  };
}

export type WarningAlertService = ReturnType<typeof createWarningAlertService>;

async function warningPass({ db, inbox, warnings, now }: WarningAlertDeps, scope: UserScope): Promise<number> {
  const current = now();
  await forgetCleared(db, current, scope);
  const users = await usersWithPlaces(db, scope);
  if (users.size === 0) return 0;
  const states = await statesOf(db, scope);
  const answers = await answersFor(warnings, users);
  const decisions: WarningDecision[] = [];
  for (const [userId, { settings, places }] of users) {
    const input: UserWarnings = {
      userId,
      settings,
      places,
      answers: new Map(places.flatMap((place) => (answers.has(place.id) ? [[place.id, answers.get(place.id)!] as const] : []))),
      states: states.get(userId) ?? [],
    };
    const decision = decideWarnings(input, current);
    if (decision) decisions.push(decision);
  }
  const written = await writeWarningDecisions(db, inbox, decisions);
  for (const row of written) inbox.publish(row);
  return written.length;
}

/** Every place of the users in scope, by user in their order, with the user's settings. */
async function usersWithPlaces(db: Db, scope: UserScope) {
  const rows = await db
    .selectFrom("places")
    .selectAll("places")
    .$if(scope !== null, (query) => query.where((eb) => inScope(eb, "places.user_id", scope!)))
    .orderBy("places.user_id")
    .orderBy("places.position")
    .execute();
  const users = new Map<string, { settings: SettingsTable; places: PlaceTable[] }>();
  if (rows.length === 0) return users;
  const settings = await db
    .selectFrom("settings")
    .selectAll()
    .$if(scope !== null, (query) => query.where((eb) => inScope(eb, "user_id", scope!)))
    .execute();
  const settingsOf = new Map(settings.map((row) => [row.user_id, row]));
  for (const place of rows) {
    const own = users.get(place.user_id);
    if (own) own.places.push(place);
    else {
      const row = settingsOf.get(place.user_id);
      if (row) users.set(place.user_id, { settings: row, places: [place] });
    }
  }
  return users;
}

async function statesOf(db: Db, scope: UserScope): Promise<Map<string, WarningStateTable[]>> {
  const rows = await db
    .selectFrom("warning_states")
    .selectAll()
    .$if(scope !== null, (query) => query.where((eb) => inScope(eb, "user_id", scope!)))
    .execute();
  const byUser = new Map<string, WarningStateTable[]>();
  for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row]);
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

/**
 * The layer's answer for every covered place, by place id, in its owner's language. Places that
 * ask the same (one area, one spot and name, one language) share one question; a few are asked at
 * once. The layer never throws: a service down is an "unavailable" answer.
 */
async function answersFor(
  warnings: OfficialWarnings,
  users: Map<string, { settings: SettingsTable; places: PlaceTable[] }>,
): Promise<Map<string, WarningsOutcome>> {
  const questions = new Map<string, { place: PlaceTable; language: string; placeIds: string[] }>();
  for (const { settings, places } of users.values()) {
    const language = LOCALE_OF[settings.language] ?? "en-US";
    for (const place of places) {
      const coverage = warnings.coverage(warningPlace(place));
      if (!coverage.covered) continue;
      const key = JSON.stringify([coverage.areaKey, place.latitude, place.longitude, place.name, place.admin1, language]);
      const question = questions.get(key);
      if (question) question.placeIds.push(place.id);
      else questions.set(key, { place, language, placeIds: [place.id] });
    }
  }
  const answers = new Map<string, WarningsOutcome>();
  const queue = [...questions.values()];
  const workers = Array.from({ length: Math.min(CONCURRENT_ANSWERS, queue.length) }, async () => {
    for (let question = queue.shift(); question; question = queue.shift()) {
      const { place, language, placeIds } = question;
      const outcome = await warnings.warningsFor(warningPlace(place), language);
      for (const placeId of placeIds) answers.set(placeId, outcome);
    }
  });
  await Promise.all(workers);
  return answers;
}

/** A saved place as the warnings layer reads it. */
export const warningPlace = (place: PlaceTable): WarningPlace => ({
  latitude: place.latitude,
  longitude: place.longitude,
  countryCode: place.country_code,
  name: place.name,
  admin1: place.admin1,
});

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
