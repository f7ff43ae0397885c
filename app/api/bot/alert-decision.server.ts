import { rulesSummaryBody } from "../../shared/rules-summary";
import type { AlertEpisodeTable, AlertStateTable } from "../db/tables";
import { coordinateKey } from "../weather/forecast";
import { planEpisodes, type EpisodePlan, type Match } from "./alert-evaluator";
import { alertMessage, allClearMessage } from "./alert-text.server";
import type { OpenEpisode, Pair, Pool } from "./alert-pass-reads.server";
import { matchesOf, ruleSpec, watchKey, type Watched } from "./alert-watch.server";
import type { NewMessage } from "./inbox.server";
import { SHOWER_SHIFT_SECONDS } from "./rain-soon";
import { botTexts } from "./texts.server";

/** An episode whose window ended longer ago than this closes without an all-clear. */
const STALE_ALL_CLEAR_MS = 60 * 60_000;

/** Windows a pass tells at one of a rule's places, with the episodes they open. */
type Told = { pair: Pair; matches: Match[]; rows: AlertEpisodeTable[] };

/**
 * What a rule calls for in a pass, at one place (decide) or at all of them (ruleDecision):
 * messages to write, episode rows to insert or update, the states to keep.
 */
export type Decision = {
  messages: NewMessage[];
  opened: AlertEpisodeTable[];
  moved: AlertEpisodeTable[];
  closed: AlertEpisodeTable[];
  states: AlertStateTable[];
  told: Told[];
};

/** The dedupe key of an episode's ALERT or ALL_CLEAR: user, what the rule watches, the spot and the episode. */
export function episodeMessageKey(
  kind: "alert" | "all-clear",
  episode: Pick<AlertEpisodeTable, "user_id" | "rule_key" | "location_key" | "start">,
) {
  return `${kind}:${episode.user_id}:${episode.rule_key}:${episode.location_key}:${episode.start}`;
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/** What one rule and place call for at `current`; the pool is updated as the decision will leave it (null: nothing). */
export function decide(pair: Pair, watched: Watched, pool: Pool, stored: AlertStateTable | undefined, current: Date): Decision | null {
  const { rule, settings } = pair;
  const spec = ruleSpec(rule);
  const matches = matchesOf(spec, watched, current, settings.time_zone, pool.open);
  const plan = planEpisodes(matches, pool.open, {
    now: current,
    cooldownHours: rule.cooldown_hours,
    lastAlertAt: pool.lastAlertAt,
    shiftSeconds: spec.metric === "RAIN_SOON" ? SHOWER_SHIFT_SECONDS : undefined,
    // An evaluated rule's snooze, if it has one, is over (alerts.server.ts parks the others): when it ended.
    snoozeEndedAt: rule.snoozed_until ? Date.parse(rule.snoozed_until) / 1000 : null,
  });
  const decision: Decision = { messages: [], opened: [], moved: [], closed: [], states: [], told: [] };
  closeOver(decision, pair, plan.over, current);
  pool.open = pool.open.filter((episode) => !plan.over.includes(episode));
  moveSeen(decision, plan.seen);
  if (plan.announce.length > 0) {
    const rows = plan.announce.map((match) => open(pair, pool, match, current));
    decision.opened.push(...rows);
    decision.told.push({ pair, matches: [...plan.announce], rows });
  }
  const state = changedState(pair, pool, stored);
  if (state) decision.states.push(state);
  const acts = decision.messages.length + decision.opened.length + decision.moved.length + decision.closed.length;
  return acts > 0 || state ? decision : null;
}

/**
 * A rule's decisions at its places in one pass, as one: its all-clears, and one ALERT for every
 * window it tells, at every place (a message per window and place was a flood: three rules on five
 * places told 91). Its key is its first episode's, so a repeated pass or a second process writes it once.
 */
export function ruleDecision(decisions: Decision[]): Decision {
  const merged = together(decisions);
  if (merged.told.length > 0) merged.messages.push(alertOf(merged.told));
  return merged;
}

/** Decisions as one, to be written in one transaction. */
function together(decisions: Decision[]): Decision {
  return {
    messages: decisions.flatMap((decision) => decision.messages),
    opened: decisions.flatMap((decision) => decision.opened),
    moved: decisions.flatMap((decision) => decision.moved),
    closed: decisions.flatMap((decision) => decision.closed),
    states: decisions.flatMap((decision) => decision.states),
    told: decisions.flatMap((decision) => decision.told),
  };
}

/**
 * Rules new in this pass (made since the last) that tell something, as one decision per user with
 * one message: what the new rules find ahead, each rule's alert a line of it ("Your new rules: 3
 * things ahead"), rather than an alert per rule on the day the starter rules go on. Other decisions
 * are as they were. The summary keeps its stored words (no content): it is news once, when made.
 */
export function summariseNewRules(decisions: Decision[], newRules: ReadonlySet<string>): Decision[] {
  const byUser = new Map<string, Decision[]>();
  const rest: Decision[] = [];
  for (const decision of decisions) {
    const rule = decision.told[0]?.pair.rule;
    if (!rule || !newRules.has(rule.id)) rest.push(decision);
    else byUser.set(rule.user_id, [...(byUser.get(rule.user_id) ?? []), decision]);
  }
  const summaries = [...byUser.values()].map((own) => (own.length === 1 ? own[0]! : summaryOf(own)));
  return [...rest, ...summaries];
}

/** A rule's soonest told window (epoch seconds). */
const soonest = (decision: Decision) => Math.min(...decision.told.flatMap(({ matches }) => matches.map((match) => match.from)));

function summaryOf(decisions: Decision[]): Decision {
  // Urgent rules first, then what comes soonest (rules made together have no order of their own).
  const ordered = [...decisions].sort(
    (a, b) => Number(b.told[0]!.pair.rule.urgent) - Number(a.told[0]!.pair.rule.urgent) || soonest(a) - soonest(b),
  );
  const alerts = ordered.flatMap((decision) => decision.messages.filter((message) => message.kind === "ALERT"));
  const { settings } = decisions[0]!.told[0]!.pair;
  const summary: NewMessage = {
    userId: settings.user_id,
    kind: "ALERT",
    title: botTexts(settings.language)("alert.summaryTitle", { count: alerts.length }),
    body: rulesSummaryBody(alerts.map((alert) => alert.body)),
    urgent: alerts.some((alert) => alert.urgent),
    placeId: alerts[0]!.placeId,
    dedupeKey: alerts.map((alert) => alert.dedupeKey).sort()[0]!,
  };
  const merged = together(decisions);
  return { ...merged, messages: [...merged.messages.filter((message) => message.kind !== "ALERT"), summary] };
}

/** The one ALERT of a rule's told windows. */
function alertOf(told: Told[]): NewMessage {
  const { rule, settings } = told[0]!.pair;
  const words = alertMessage(
    rule,
    told.map(({ pair, matches }) => ({ place: pair.place, matches })),
    settings,
  );
  const keys = told.flatMap(({ rows }) => rows.map((row) => episodeMessageKey("alert", row))).sort();
  return {
    userId: rule.user_id,
    kind: "ALERT",
    title: words.title,
    body: words.body,
    content: words.content,
    urgent: rule.urgent === 1,
    placeId: words.worst.place.id,
    alertRuleId: rule.id,
    match: { ...words.worst.match, placeId: words.worst.place.id },
    dedupeKey: keys[0]!,
  };
}

/** Closes the episodes that are over, each with its all-clear if the rule asks for one and the news is fresh. */
function closeOver(decision: Decision, { rule, place, settings }: Pair, over: OpenEpisode[], current: Date): void {
  for (const episode of over) {
    const row = { ...episode.row, closed_at: current.toISOString() };
    decision.closed.push(row);
    // An all-clear for a window over long ago (its place was away, the engine was down) is stale news: the episode just closes.
    if (rule.notify_all_clear === 1 && episode.to * 1000 >= current.getTime() - STALE_ALL_CLEAR_MS) {
      decision.messages.push({
        userId: rule.user_id,
        kind: "ALL_CLEAR",
        ...allClearMessage(rule, place, settings),
        placeId: place.id,
        alertRuleId: rule.id,
        dedupeKey: episodeMessageKey("all-clear", row),
      });
    }
  }
}

/** Moves the windows of open episodes seen again where the forecast now puts them (no message: it was told). */
function moveSeen(decision: Decision, seen: EpisodePlan<OpenEpisode>["seen"]): void {
  for (const { episode, from, to } of seen) {
    if (episode.from === from && episode.to === to) continue;
    episode.row = { ...episode.row, window_from: iso(from), window_to: iso(to) };
    Object.assign(episode, { from, to });
    decision.moved.push(episode.row);
  }
}

/** Opens an episode for a new window and keeps it in the pool (its alert starts the cooldown). */
function open({ rule, place }: Pair, pool: Pool, match: Match, current: Date): AlertEpisodeTable {
  const row: AlertEpisodeTable = {
    user_id: rule.user_id,
    rule_key: watchKey(rule),
    location_key: coordinateKey(place),
    start: iso(match.from),
    window_from: iso(match.from),
    window_to: iso(match.to),
    alerted_at: current.toISOString(),
    closed_at: null,
  };
  pool.open.push({ start: match.from, from: match.from, to: match.to, alertedAt: current.getTime() / 1000, row });
  pool.lastAlertAt = current.getTime() / 1000;
  return row;
}

/** The rule and place's state (ARMED / TRIGGERED, for the rule list) as the pool leaves it, if it differs from the stored one. */
function changedState({ rule, place }: Pair, pool: Pool, stored: AlertStateTable | undefined): AlertStateTable | null {
  const latest = pool.open.reduce<OpenEpisode | null>((last, episode) => (!last || episode.start > last.start ? episode : last), null);
  const state: AlertStateTable = {
    rule_id: rule.id,
    place_id: place.id,
    state: latest ? "TRIGGERED" : "ARMED",
    episode_start: latest?.row.start ?? null,
    last_triggered_at: pool.lastAlertAt === null ? (stored?.last_triggered_at ?? null) : iso(pool.lastAlertAt),
  };
  const changed = stored
    ? stored.state !== state.state || stored.episode_start !== state.episode_start || stored.last_triggered_at !== state.last_triggered_at
    : state.state !== "ARMED" || state.last_triggered_at !== null;
  return changed ? state : null;
}
