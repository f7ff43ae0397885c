import type { Db } from "../db/database.server";
import type { PlaceTable } from "../db/tables";
import type { AirQualityService } from "../weather/air-quality-service.server";
import type { ForecastService } from "../weather/forecast-service.server";
import type { Match, RuleSpec } from "./alert-evaluator";
import { decide, ruleDecision, summariseNewRules, type Decision } from "./alert-decision.server";
import { dueRules, forgetOldEpisodes, ownersOf, pairsOf, poolOf, poolsOf, stateOf, statesOf } from "./alert-pass-reads.server";
import { airQualityOf, readingsOf, watchedBy } from "./alert-readings.server";
import { hoursFor, matchesOf } from "./alert-watch.server";
import { markWatched, writeDecisions } from "./alert-writes.server";
import type { Inbox } from "./inbox.server";
import type { UserScope } from "./shard-ranges";

/** What the alert engine works with. */
type AlertDeps = { db: Db; inbox: Inbox; forecasts: ForecastService; airQuality: AirQualityService; now: () => Date };

/**
 * The alert engine. Every separate window in which the forecast crosses a rule is an
 * episode (see planEpisodes), told once and followed by one ALL_CLEAR when it is over (if
 * asked), never once per pass or refresh; the windows a rule tells in one pass, at all its
 * places, go in one ALERT (ruleDecision). Episodes are remembered per user, what
 * the rule watches and rounded coordinates, so re-adding a place or re-making a rule does
 * not repeat them. Messages are keyed by episode, so a repeated pass or a second process
 * cannot write one twice; messages and episode changes go in one transaction. The per rule
 * and place state (ARMED / TRIGGERED) is kept in step for the rule list.
 */
export function createAlertService(deps: AlertDeps) {
  return {
    /** One pass over every enabled, unsnoozed rule (of the users in `scope`: an engine instance's shards). */
    evaluateAll: (scope: UserScope = null) => evaluatePass(deps, scope),
    /** When a rule would fire within its own look-ahead, for each of the places it covers. */
    preview: (userId: string, spec: RuleSpec, placeId: string | null) => previewRule(deps, userId, spec, placeId),
  };
}

export type AlertService = ReturnType<typeof createAlertService>;

/** One pass: the due rules at their places, each decided against the weather, and what they call for written and published. */
async function evaluatePass(
  { db, inbox, forecasts, airQuality, now }: AlertDeps,
  scope: UserScope,
): Promise<{ alerts: number; allClears: number }> {
  const rules = await dueRules(db, now().toISOString(), scope);
  const pairs = await pairsOf(db, rules);
  const readings = await readingsOf(pairs, forecasts, airQuality);
  const states = await statesOf(db, rules);
  await forgetOldEpisodes(db, now(), scope);
  const pools = await poolsOf(db, ownersOf(rules), now());
  const byRule = new Map<string, Decision[]>();
  for (const pair of pairs) {
    const watched = watchedBy(pair, readings);
    const decision = watched ? decide(pair, watched, poolOf(pools, pair), stateOf(states, pair), now()) : null;
    if (!decision) continue;
    const own = byRule.get(pair.rule.id);
    if (own) own.push(decision);
    else byRule.set(pair.rule.id, [decision]);
  }
  const newRules = new Set(rules.filter((rule) => rule.watched_since === null).map((rule) => rule.id));
  const decisions = summariseNewRules([...byRule.values()].map(ruleDecision), newRules);
  const written = await writeDecisions(db, inbox, decisions);
  // After what they told is written: a pass cut short before this tells nothing twice (the episodes are known).
  await markWatched(db, [...newRules], now());
  for (const row of written) inbox.publish(row);
  const alerts = written.filter((row) => row.kind === "ALERT").length;
  return { alerts, allClears: written.length - alerts };
}

/** The windows a rule would fire in at the user's places (or the one named), on the weather as it is now. */
async function previewRule(
  { db, forecasts, airQuality, now }: AlertDeps,
  userId: string,
  spec: RuleSpec,
  placeId: string | null,
): Promise<Array<Match & { place: PlaceTable }>> {
  const settings = await db.selectFrom("settings").selectAll().where("user_id", "=", userId).executeTakeFirstOrThrow();
  let query = db.selectFrom("places").selectAll().where("user_id", "=", userId).orderBy("position");
  if (placeId) query = query.where("id", "=", placeId);
  const places = await query.execute();
  const [results, airOf] = await Promise.all([
    Promise.all(places.map((place) => forecasts.get(place))),
    airQualityOf(airQuality, spec.metric === "AQI" ? places : [], "throw"),
  ]);
  return places.flatMap((place, index) => {
    const { forecast } = results[index]!;
    const hours = hoursFor(spec.metric, forecast.hourly, airOf.get(place.id), settings) ?? [];
    return matchesOf(spec, { forecast, hours }, now(), settings.time_zone).map((match) => ({ ...match, place }));
  });
}
