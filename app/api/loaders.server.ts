import DataLoader from "dataloader";
import type { Db } from "./db/database.server";
import type { AlertRuleTable, AlertStateTable, BriefingTable, PlaceTable, SettingsTable, UserTable } from "./db/tables";

/** A row asked for on behalf of a user: only that user's rows are ever returned. */
export type OwnedKey = { userId: string; id: string };

/** More keys than any list of the schema holds at once (SQLite allows 32,766 parameters). */
const MAX_BATCH = 500;

/**
 * Batching only, no memo: a relation read later in the same operation (after a mutation,
 * or in the next event of a subscription, which keeps its context) reads the database
 * again, as it did before loaders. Keys repeat within a batch; the reads ask once per id.
 */
function batched<K, V>(load: (keys: readonly K[]) => Promise<ArrayLike<V | Error>>): DataLoader<K, V> {
  return new DataLoader<K, V>(load, { cache: false, maxBatchSize: MAX_BATCH });
}

/** The distinct ids asked for, per user. */
function idsByUser(keys: readonly OwnedKey[]): Map<string, string[]> {
  const byUser = new Map<string, Set<string>>();
  for (const { userId, id } of keys) {
    let ids = byUser.get(userId);
    if (!ids) byUser.set(userId, (ids = new Set()));
    ids.add(id);
  }
  return new Map([...byUser].map(([userId, ids]) => [userId, [...ids]]));
}

/** A rule's state at one place, with the rule's owner. */
export type AlertStateRow = Pick<AlertStateTable, "rule_id" | "state" | "last_triggered_at"> & { user_id: string };
/** The latest time any of a rule's states was triggered, or null (as `order by last_triggered_at desc` read it). */
export function latestTrigger(states: readonly AlertStateRow[]): string | null {
  let latest: string | null = null;
  for (const { last_triggered_at: at } of states) if (at !== null && (latest === null || at > latest)) latest = at;
  return latest;
}

/** A place in a briefing, with the briefing it is in. */
type BriefingPlaceRow = PlaceTable & { briefing_id: string };

const ownedKey = (userId: string, id: string) => `${userId}\0${id}`;

type OwnedRead<Row> = (userId: string, ids: string[]) => Promise<Row[]>;

/**
 * The rows asked for, by owner and id: one statement per owner (a request has one). `read`
 * must return only `userId`'s rows; anything else it returns is dropped all the same.
 */
async function readOwned<Row extends { user_id: string }>(
  keys: readonly OwnedKey[],
  idOf: (row: Row) => string,
  read: OwnedRead<Row>,
): Promise<Map<string, Row[]>> {
  const found = new Map<string, Row[]>();
  for (const [userId, ids] of idsByUser(keys)) {
    for (const row of await read(userId, ids)) {
      if (row.user_id !== userId) continue;
      const key = ownedKey(userId, idOf(row));
      const rows = found.get(key);
      if (rows) rows.push(row);
      else found.set(key, [row]);
    }
  }
  return found;
}

/** Every row of a user's item (by the item's id), in the order read. */
function ownedRows<Row extends { user_id: string }>(idOf: (row: Row) => string, read: OwnedRead<Row>): DataLoader<OwnedKey, Row[]> {
  return batched(async (keys) => {
    const found = await readOwned(keys, idOf, read);
    return keys.map(({ userId, id }) => found.get(ownedKey(userId, id)) ?? []);
  });
}

/** A user's row by id, or null. */
function ownedRow<Row extends { id: string; user_id: string }>(read: OwnedRead<Row>): DataLoader<OwnedKey, Row | null> {
  return batched(async (keys) => {
    const found = await readOwned(keys, (row) => row.id, read);
    return keys.map(({ userId, id }) => found.get(ownedKey(userId, id))?.[0] ?? null);
  });
}

/** A user's own row (their account, their settings) by user id; a missing one fails as executeTakeFirstOrThrow did. */
function userRow<Row>(table: string, idOf: (row: Row) => string, read: (userIds: string[]) => Promise<Row[]>): DataLoader<string, Row> {
  return batched(async (userIds) => {
    const found = new Map((await read([...new Set(userIds)])).map((row) => [idOf(row), row]));
    return userIds.map((userId) => found.get(userId) ?? new Error(`No ${table} row for user ${userId}`));
  });
}

/**
 * One request's batched reads of per-item relations (a message's place, a rule's state, a
 * briefing's places, ...): every item of a list asks in the same tick, and each relation
 * becomes one `in (...)` statement. Made with each request's context (an HTTP request, an
 * in-process loader request, a WebSocket operation), never shared between requests; each
 * loader is made when first used, so a request that needs none (an answer from the result
 * cache) pays for none. Items are asked for with their owner (`OwnedKey`), taken from the
 * parent row the API already read for the signed-in user; a user's own rows (account,
 * settings, unread count) are asked for by that user's id.
 */
export class Loaders {
  readonly #db: Db;
  #place?: DataLoader<OwnedKey, PlaceTable | null>;
  #briefing?: DataLoader<OwnedKey, BriefingTable | null>;
  #alertRule?: DataLoader<OwnedKey, AlertRuleTable | null>;
  #alertStates?: DataLoader<OwnedKey, AlertStateRow[]>;
  #briefingPlaces?: DataLoader<OwnedKey, BriefingPlaceRow[]>;
  #user?: DataLoader<string, Pick<UserTable, "id" | "email" | "created_at">>;
  #settings?: DataLoader<string, SettingsTable>;
  #unreadCount?: DataLoader<string, number>;

  constructor(db: Db) {
    this.#db = db;
  }

  /** A user's place by id. */
  get place() {
    return (this.#place ??= ownedRow((userId, ids) =>
      this.#db.selectFrom("places").selectAll().where("user_id", "=", userId).where("id", "in", ids).execute(),
    ));
  }

  /** A user's briefing by id. */
  get briefing() {
    return (this.#briefing ??= ownedRow((userId, ids) =>
      this.#db.selectFrom("briefings").selectAll().where("user_id", "=", userId).where("id", "in", ids).execute(),
    ));
  }

  /** A user's alert rule by id. */
  get alertRule() {
    return (this.#alertRule ??= ownedRow((userId, ids) =>
      this.#db.selectFrom("alert_rules").selectAll().where("user_id", "=", userId).where("id", "in", ids).execute(),
    ));
  }

  /** What a user's rule (by id) is watching at each place: its state rows. */
  get alertStates() {
    return (this.#alertStates ??= ownedRows<AlertStateRow>(
      (row) => row.rule_id,
      (userId, ruleIds) =>
        this.#db
          .selectFrom("alert_states")
          .innerJoin("alert_rules", "alert_rules.id", "alert_states.rule_id")
          .select(["alert_states.rule_id", "alert_rules.user_id", "alert_states.state", "alert_states.last_triggered_at"])
          .where("alert_rules.user_id", "=", userId)
          .where("alert_states.rule_id", "in", ruleIds)
          .execute(),
    ));
  }

  /** The places of a user's briefing (by id), in the briefing's order. */
  get briefingPlaces() {
    return (this.#briefingPlaces ??= ownedRows<BriefingPlaceRow>(
      (row) => row.briefing_id,
      (userId, briefingIds) =>
        this.#db
          .selectFrom("briefing_places")
          .innerJoin("places", "places.id", "briefing_places.place_id")
          .selectAll("places")
          .select("briefing_places.briefing_id")
          .where("briefing_places.briefing_id", "in", briefingIds)
          .where("places.user_id", "=", userId)
          .orderBy("briefing_places.position")
          .execute(),
    ));
  }

  /** A user's account. */
  get user() {
    return (this.#user ??= userRow(
      "users",
      (row) => row.id,
      (userIds) => this.#db.selectFrom("users").select(["id", "email", "created_at"]).where("id", "in", userIds).execute(),
    ));
  }

  /** A user's settings. */
  get settings() {
    return (this.#settings ??= userRow(
      "settings",
      (row) => row.user_id,
      (userIds) => this.#db.selectFrom("settings").selectAll().where("user_id", "in", userIds).execute(),
    ));
  }

  /** How many of a user's messages are unread. */
  get unreadCount() {
    return (this.#unreadCount ??= batched(async (userIds) => {
      const rows = await this.#db
        .selectFrom("messages")
        .select((eb) => ["user_id", eb.fn.countAll<number>().as("count")])
        .where("user_id", "in", [...new Set(userIds)])
        .where("read_at", "is", null)
        .groupBy("user_id")
        .execute();
      const counts = new Map(rows.map((row) => [row.user_id, Number(row.count)]));
      return userIds.map((userId) => counts.get(userId) ?? 0);
    }));
  }
}
