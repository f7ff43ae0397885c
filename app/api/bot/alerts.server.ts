import type { Db } from "../db/database.server";
import type { AlertRuleTable, PlaceTable } from "../db/tables";
import type { AirQualityService } from "../weather/air-quality-service.server";
import type { ForecastService } from "../weather/forecast-service.server";
import type { Match, RuleSpec } from "./alert-evaluator";
import { decide, ruleDecision, summariseNewRules, type Decision } from "./alert-decision.server";
import { forgetOldEpisodes, ownersOf, pairsOf, poolOf, poolsOf, stateOf, statesOf, type Pair, type Pool } from "./alert-pass-reads.server";
import { airQualityOf, readingsOf, watchedBy, type Readings } from "./alert-readings.server";
import { hoursFor, matchesOf, ruleSpec } from "./alert-watch.server";
import { nextWake } from "./alert-wake";
import { refreshFeeds } from "./feed-refresh.server";
import { claimWokenRules, scheduleWakes } from "./rule-wakes.server";
import { recordFeeds, refreshPlan } from "./watched-feeds.server";
import { markWatched, writeDecisions } from "./alert-writes.server";
import type { Inbox } from "./inbox.server";
import type { UserScope } from "./shard-ranges";

/** What the alert engine works with. */
type AlertDeps = {
  db: Db;
  inbox: Inbox;
  forecasts: ForecastService;
  airQuality: AirQualityService;
  now: () => Date;
  /** Watched feeds read again each in its own phase of the cache's cycle, not as each expires (see watched-feeds). */
  refreshSpread?: boolean;
};

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
    /**
     * One pass over the rules (of the users in `scope`: an engine instance's shards) whose input changed since they
     * were last read (decision 026): their place's weather, a boundary of their own, or the rule itself. Returns
     * what it wrote and the rules it evaluated.
     */
    evaluateAll: (scope: UserScope = null) => evaluatePass(deps, scope),
    /** When a rule would fire within its own look-ahead, for each of the places it covers. */
    preview: (userId: string, spec: RuleSpec, placeId: string | null) => previewRule(deps, userId, spec, placeId),
  };
}

export type AlertService = ReturnType<typeof createAlertService>;

/** What a pass wrote, and the ids of the rules it evaluated. */
export type AlertPassResult = { alerts: number; allClears: number; evaluated: string[] };

/**
 * Users whose woken rules are claimed and evaluated together (at most 50 rules each, 5,000 at the scale bench's 10):
 * a pass goes on batch after batch until none is woken.
 */
const BATCH_USERS = 500;

/**
 * One pass: the feeds due are read again (waking the rules whose weather changed), then the woken rules are
 * taken batch by batch, each decided against the weather, what they call for written and published, and
 * their next wake-up time set.
 */
async function evaluatePass(deps: AlertDeps, scope: UserScope): Promise<AlertPassResult> {
  const current = deps.now();
  const at = current.toISOString();
  await refreshFeeds(deps, current, scope);
  await forgetOldEpisodes(deps.db, current, scope);
  const result: AlertPassResult = { alerts: 0, allClears: 0, evaluated: [] };
  // After the first batch only rules woken before now: those claimed in this pass say "now" until they are scheduled.
  for (let batch = 0; ; batch++) {
    const claimed = await claimWokenRules(deps.db, at, scope, BATCH_USERS, batch === 0);
    if (claimed.length === 0) return result;
    const outcome = await evaluateRules(deps, claimed, current);
    result.alerts += outcome.alerts;
    result.allClears += outcome.allClears;
    result.evaluated.push(...outcome.evaluated);
  }
}

/** Rules that ask for no evaluation now: disabled (only an edit wakes them), or snoozed (until the snooze ends). */
function parkedWake(rule: AlertRuleTable, at: string): string | null | undefined {
  if (rule.enabled !== 1) return null;
  if (rule.snoozed_until !== null && rule.snoozed_until > at) return rule.snoozed_until;
  return undefined;
}

// Two rules that watch the same thing share their episodes and the first to see one tells it:
// an urgent rule first, so a duplicate that is not urgent cannot hold its push in quiet hours.
const byTelling = (a: AlertRuleTable, b: AlertRuleTable) =>
  b.urgent - a.urgent || (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The claimed rules at their places, each decided against the weather; what they call for written and published. */
async function evaluateRules({ db, inbox, forecasts, airQuality, refreshSpread }: AlertDeps, claimed: AlertRuleTable[], current: Date) {
  const at = current.toISOString();
  const wakes = new Map<string, string | null>();
  const rules: AlertRuleTable[] = [];
  for (const rule of claimed) {
    const parked = parkedWake(rule, at);
    if (parked === undefined) rules.push(rule);
    else wakes.set(rule.id, parked);
  }
  rules.sort(byTelling);
  const pairs = await pairsOf(db, rules);
  const readings = await readingsOf(pairs, forecasts, airQuality, refreshPlan(refreshSpread));
  const states = await statesOf(db, rules);
  const pools = await poolsOf(db, ownersOf(rules), current);
  const byRule = new Map<string, Decision[]>();
  for (const pair of pairs) {
    const watched = watchedBy(pair, readings);
    const decision = watched ? decide(pair, watched, poolOf(pools, pair), stateOf(states, pair), current) : null;
    if (!decision) continue;
    const own = byRule.get(pair.rule.id);
    if (own) own.push(decision);
    else byRule.set(pair.rule.id, [decision]);
  }
  const newRules = new Set(rules.filter((rule) => rule.watched_since === null).map((rule) => rule.id));
  const decisions = summariseNewRules([...byRule.values()].map(ruleDecision), newRules);
  const written = await writeDecisions(db, inbox, decisions);
  // After what they told is written: a pass cut short before this tells nothing twice (the episodes are known).
  await markWatched(db, [...newRules], current);
  for (const row of written) inbox.publish(row);
  for (const [id, wake] of wakesOf(rules, pairs, readings, pools, current)) wakes.set(id, wake);
  await recordFeeds(db, readings.feeds, false);
  await scheduleWakes(
    db,
    claimed.map((rule) => ({ id: rule.id, read: rule.next_wake_at ?? null, next: wakes.get(rule.id) ?? null })),
  );
  const alerts = written.filter((row) => row.kind === "ALERT").length;
  return { alerts, allClears: written.length - alerts, evaluated: rules.map((rule) => rule.id) };
}

/** Each rule's next wake-up time: the soonest of its places' (null: none, only a change wakes it). */
function wakesOf(rules: AlertRuleTable[], pairs: Pair[], readings: Readings, pools: Map<string, Pool>, current: Date) {
  const seconds = current.getTime() / 1000;
  const soonest = new Map<string, number | null>(rules.map((rule) => [rule.id, null]));
  for (const pair of pairs) {
    const pool = poolOf(pools, pair);
    const wake = nextWake(
      {
        spec: ruleSpec(pair.rule),
        watched: watchedBy(pair, readings),
        open: pool.open,
        lastAlertAt: pool.lastAlertAt,
        cooldownHours: pair.rule.cooldown_hours,
        timeZone: pair.settings.time_zone,
      },
      seconds,
    );
    const known = soonest.get(pair.rule.id) ?? null;
    if (wake !== null && (known === null || wake < known)) soonest.set(pair.rule.id, wake);
  }
  return new Map([...soonest].map(([id, wake]) => [id, wake === null ? null : new Date(wake * 1000).toISOString()]));
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
    const hours = hoursFor(spec, forecast.hourly, airOf.get(place.id)) ?? [];
    return matchesOf(spec, { forecast, hours }, now(), settings.time_zone).map((match) => ({ ...match, place }));
  });
}
