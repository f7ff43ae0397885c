import type { Db } from "../db/database.server";
import type { AlertEpisodeTable, AlertRuleTable, AlertStateTable, PlaceTable, SettingsTable } from "../db/tables";
import { coordinateKey } from "../weather/forecast";
import type { Episode } from "./alert-evaluator";
import { watchKey } from "./alert-watch.server";
import { inScope, type UserScope } from "./shard-ranges";

/** One rule at one of the places it covers, with its owner's settings. */
export type Pair = { rule: AlertRuleTable; place: PlaceTable; settings: SettingsTable };

/** An episode not yet over, with the row that keeps it. */
export type OpenEpisode = Episode & { row: AlertEpisodeTable };

/** The episodes of one rule key at one spot, as this pass knows them (shared by the pairs that land on it). */
export type Pool = { open: OpenEpisode[]; lastAlertAt: number | null };

/** The longest cooldown a rule can have: episodes alerted longer ago than this no longer hold anything back. */
const MAX_COOLDOWN_MS = 168 * 3_600_000;
/** Episodes are forgotten this long after their alert and their window. */
const EPISODE_MEMORY_MS = MAX_COOLDOWN_MS + 24 * 3_600_000;

const seconds = (isoTime: string) => Date.parse(isoTime) / 1000;

/** The owners of these rules, each once. */
export function ownersOf(rules: AlertRuleTable[]): string[] {
  return [...new Set(rules.map((rule) => rule.user_id))];
}

/** Each rule with every place of its owner it covers (all of them, or the one it names), in the rules' order. */
export async function pairsOf(db: Db, rules: AlertRuleTable[]): Promise<Pair[]> {
  const userIds = ownersOf(rules);
  if (userIds.length === 0) return [];
  const places = await db.selectFrom("places").selectAll().where("user_id", "in", userIds).orderBy("position").execute();
  const settingsRows = await db.selectFrom("settings").selectAll().where("user_id", "in", userIds).execute();
  const settingsOf = new Map(settingsRows.map((row) => [row.user_id, row]));
  // Places by owner: each rule looks only at its user's places (10,000 rules × 1,000 places otherwise).
  const placesOf = new Map<string, PlaceTable[]>();
  for (const place of places) {
    const own = placesOf.get(place.user_id);
    if (own) own.push(place);
    else placesOf.set(place.user_id, [place]);
  }
  return rules.flatMap((rule) =>
    (placesOf.get(rule.user_id) ?? [])
      .filter((place) => rule.place_id === null || rule.place_id === place.id)
      .map((place) => ({ rule, place, settings: settingsOf.get(rule.user_id)! })),
  );
}

/** Current states of these rules, keyed "ruleId placeId" (one query per 500 rules, not one per pair). */
export async function statesOf(db: Db, rules: AlertRuleTable[]): Promise<Map<string, AlertStateTable>> {
  const ruleIds = rules.map((rule) => rule.id);
  const states = new Map<string, AlertStateTable>();
  for (let start = 0; start < ruleIds.length; start += 500) {
    const rows = await db
      .selectFrom("alert_states")
      .selectAll()
      .where("rule_id", "in", ruleIds.slice(start, start + 500))
      .execute();
    for (const row of rows) states.set(`${row.rule_id} ${row.place_id}`, row);
  }
  return states;
}

/** A pair's stored state, if it has one. */
export function stateOf(states: Map<string, AlertStateTable>, { rule, place }: Pair): AlertStateTable | undefined {
  return states.get(`${rule.id} ${place.id}`);
}

/** Forgets the episodes (of the users in `scope`) alerted and over long enough ago that nothing reads them any more. */
export async function forgetOldEpisodes(db: Db, current: Date, scope: UserScope): Promise<void> {
  const forgotten = new Date(current.getTime() - EPISODE_MEMORY_MS).toISOString();
  await db
    .deleteFrom("alert_episodes")
    .where("alerted_at", "<", forgotten)
    .where("window_to", "<", forgotten)
    .$if(scope !== null, (query) => query.where((eb) => inScope(eb, "user_id", scope!)))
    .execute();
}

/** The episodes that still matter for these users (open ones, and recent alerts for the cooldown), by pool. */
export async function poolsOf(db: Db, userIds: string[], current: Date): Promise<Map<string, Pool>> {
  const pools = new Map<string, Pool>();
  const recent = new Date(current.getTime() - MAX_COOLDOWN_MS).toISOString();
  for (let start = 0; start < userIds.length; start += 500) {
    const rows = await db
      .selectFrom("alert_episodes")
      .selectAll()
      .where("user_id", "in", userIds.slice(start, start + 500))
      .where((eb) => eb.or([eb("closed_at", "is", null), eb("alerted_at", ">=", recent)]))
      .execute();
    for (const row of rows) {
      const pool = poolAt(pools, `${row.user_id}|${row.rule_key}|${row.location_key}`);
      const alertedAt = seconds(row.alerted_at);
      pool.lastAlertAt = Math.max(pool.lastAlertAt ?? alertedAt, alertedAt);
      if (row.closed_at === null)
        pool.open.push({ start: seconds(row.start), from: seconds(row.window_from), to: seconds(row.window_to), alertedAt, row });
    }
  }
  return pools;
}

/** The pool a pair's rule and place land on (a fresh, empty one kept in `pools` if none is known yet). */
export function poolOf(pools: Map<string, Pool>, { rule, place }: Pair): Pool {
  return poolAt(pools, `${rule.user_id}|${watchKey(rule)}|${coordinateKey(place)}`);
}

function poolAt(pools: Map<string, Pool>, key: string): Pool {
  const pool = pools.get(key) ?? { open: [], lastAlertAt: null };
  pools.set(key, pool);
  return pool;
}
