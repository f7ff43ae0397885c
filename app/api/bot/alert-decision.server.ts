import type { AlertEpisodeTable, AlertStateTable } from "../db/tables";
import { coordinateKey } from "../weather/forecast";
import { planEpisodes, type EpisodePlan, type Match } from "./alert-evaluator";
import { alertMessage, allClearMessage } from "./alert-text.server";
import type { OpenEpisode, Pair, Pool } from "./alert-pass-reads.server";
import { matchesOf, ruleSpec, watchKey, type Watched } from "./alert-watch.server";
import type { NewMessage } from "./inbox.server";
import { SHOWER_SHIFT_SECONDS } from "./rain-soon";

/** An episode whose window ended longer ago than this closes without an all-clear. */
const STALE_ALL_CLEAR_MS = 60 * 60_000;

/** What one rule and place call for in a pass: messages to write, episode rows to insert or update, the state to keep. */
export type Decision = {
  messages: NewMessage[];
  opened: AlertEpisodeTable[];
  moved: AlertEpisodeTable[];
  closed: AlertEpisodeTable[];
  state: AlertStateTable | null;
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
  });
  const decision: Decision = { messages: [], opened: [], moved: [], closed: [], state: null };
  closeOver(decision, pair, plan.over, current);
  pool.open = pool.open.filter((episode) => !plan.over.includes(episode));
  moveSeen(decision, plan.seen);
  for (const match of plan.announce) open(decision, pair, pool, match, current);
  decision.state = changedState(pair, pool, stored);
  const acts = decision.messages.length + decision.opened.length + decision.moved.length + decision.closed.length;
  return acts > 0 || decision.state ? decision : null;
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

/** Opens an episode for a new window, with its ALERT, and keeps it in the pool (its alert starts the cooldown). */
function open(decision: Decision, { rule, place, settings }: Pair, pool: Pool, match: Match, current: Date): void {
  const row: AlertEpisodeTable = {
    user_id: rule.user_id,
    rule_key: watchKey(rule, settings),
    location_key: coordinateKey(place),
    start: iso(match.from),
    window_from: iso(match.from),
    window_to: iso(match.to),
    alerted_at: current.toISOString(),
    closed_at: null,
  };
  decision.opened.push(row);
  decision.messages.push({
    userId: rule.user_id,
    kind: "ALERT",
    ...alertMessage(rule, place, match, settings),
    urgent: rule.urgent === 1,
    placeId: place.id,
    alertRuleId: rule.id,
    match: { ...match, placeId: place.id },
    dedupeKey: episodeMessageKey("alert", row),
  });
  pool.open.push({ start: match.from, from: match.from, to: match.to, alertedAt: current.getTime() / 1000, row });
  pool.lastAlertAt = current.getTime() / 1000;
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
