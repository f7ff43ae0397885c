import type { Db } from "../db/database.server";
import type { AlertEpisodeTable, AlertRuleTable, AlertStateTable, MessageTable, PlaceTable, SettingsTable } from "../db/tables";
import type { AlertMetric, Comparator, Condition } from "../../shared/schema-enums.generated";
import type { AirQuality } from "../weather/air-quality";
import type { AirQualityService } from "../weather/air-quality-service.server";
import { coordinateKey, type Forecast, type HourlyForecast } from "../weather/forecast";
import type { ForecastService } from "../weather/forecast-service.server";
import { withAirQuality } from "./air-quality-hours";
import { findMatches, planEpisodes, type AlertHour, type Episode, type Match, type RuleSpec } from "./alert-evaluator";
import { alertMessage, allClearMessage, ownerAqiScale } from "./alert-text.server";
import { findShowers, SHOWER_SHIFT_SECONDS } from "./rain-soon";
import { parseDays } from "./briefings.server";
import type { Inbox, NewMessage } from "./inbox.server";
import { ruleKey } from "./rule-key";
import { inScope, type UserScope } from "./shard-ranges";

export function ruleSpec(row: AlertRuleTable): RuleSpec {
  return {
    metric: row.metric as AlertMetric,
    comparator: row.comparator as Comparator,
    threshold: row.threshold,
    conditions: (row.conditions ? row.conditions.split(",") : []) as Condition[],
    lookaheadHours: row.lookahead_hours,
    activeDays: parseDays(row.active_days),
    activeFrom: row.active_from,
    activeTo: row.active_to,
  };
}

type Pair = { rule: AlertRuleTable; place: PlaceTable; settings: SettingsTable };

/**
 * What a rule watches for its episodes (ruleKey), and for an AQI rule the scale its points are on:
 * a reader who changes units (and so scales) starts afresh, rather than having the other scale's
 * lower figures read as the smoke being over (an all-clear while it goes on).
 */
function watchKey(rule: AlertRuleTable, settings: SettingsTable): string {
  const key = ruleKey(rule);
  return rule.metric === "AQI" ? `${key}|${ownerAqiScale(settings)}` : key;
}

/** What a rule reads at a place: the forecast, and its hours as the rule sees them (with the AQI for an AQI rule). */
type Watched = { forecast: Forecast; hours: readonly AlertHour[] };

/**
 * The windows a rule sees now: hours crossing its threshold, or for RAIN_SOON the showers of the
 * quarter-hour nowcast starting within its minutes (and those under way that belong to an episode
 * already told, `told`).
 */
function matchesOf(spec: RuleSpec, { forecast, hours }: Watched, now: Date, timeZone: string, told: ReadonlyArray<Episode> = []): Match[] {
  return spec.metric === "RAIN_SOON"
    ? findShowers(spec, forecast.minutely15 ?? [], now, timeZone, told)
    : findMatches(spec, hours, now, timeZone);
}

/** The longest cooldown a rule can have: episodes alerted longer ago than this no longer hold anything back. */
const MAX_COOLDOWN_MS = 168 * 3_600_000;
/** An episode whose window ended longer ago than this closes without an all-clear. */
const STALE_ALL_CLEAR_MS = 60 * 60_000;
/** Episodes are forgotten this long after their alert and their window. */
const EPISODE_MEMORY_MS = MAX_COOLDOWN_MS + 24 * 3_600_000;

/** The dedupe key of an episode's ALERT or ALL_CLEAR: user, what the rule watches, the spot and the episode. */
export function episodeMessageKey(
  kind: "alert" | "all-clear",
  episode: Pick<AlertEpisodeTable, "user_id" | "rule_key" | "location_key" | "start">,
) {
  return `${kind}:${episode.user_id}:${episode.rule_key}:${episode.location_key}:${episode.start}`;
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
const seconds = (isoTime: string) => Date.parse(isoTime) / 1000;

/** The episodes of one rule key at one spot, as this pass knows them (shared by the pairs that land on it). */
type Pool = { open: Array<Episode & { row: AlertEpisodeTable }>; lastAlertAt: number | null };

/**
 * The alert engine. Every separate window in which the forecast crosses a rule is an
 * episode (see planEpisodes): one ALERT naming its window and peak, one ALL_CLEAR when it
 * is over (if asked), never one per pass or refresh. Episodes are remembered per user, what
 * the rule watches and rounded coordinates, so re-adding a place or re-making a rule does
 * not repeat them. Messages are keyed by episode, so a repeated pass or a second process
 * cannot write one twice; messages and episode changes go in one transaction. The per rule
 * and place state (ARMED / TRIGGERED) is kept in step for the rule list.
 */
export function createAlertService({
  db,
  inbox,
  forecasts,
  airQuality,
  now,
}: {
  db: Db;
  inbox: Inbox;
  forecasts: ForecastService;
  airQuality: AirQualityService;
  now: () => Date;
}) {
  /**
   * Air quality at these places (those an AQI rule watches: no other rule needs it), by place. Where it cannot be had a
   * pass reads null (the place is skipped quietly); a preview lets the failure through, since finding nothing would read
   * as clean air (WEATHER_UNAVAILABLE, as for forecasts).
   */
  async function airQualityOf(places: PlaceTable[], onFailure: "skip" | "throw" = "skip"): Promise<Map<string, AirQuality | null>> {
    if (places.length === 0) return new Map();
    const results = await Promise.allSettled(places.map((place) => airQuality.get(place)));
    return new Map(
      places.map((place, index) => {
        const result = results[index]!;
        if (result.status === "fulfilled") return [place.id, result.value.data];
        if (onFailure === "throw") throw result.reason;
        return [place.id, null];
      }),
    );
  }

  /** The hours a rule reads at a place: the forecast's, with the AQI on the user's scale for an AQI rule (null: none to read). */
  function hoursFor(
    metric: string,
    hourly: readonly HourlyForecast[] | null,
    air: AirQuality | null | undefined,
    settings: SettingsTable,
  ): readonly AlertHour[] | null {
    if (metric !== "AQI" || !hourly) return hourly;
    return air ? withAirQuality(hourly, air, ownerAqiScale(settings)) : null;
  }

  async function placesFor(rules: AlertRuleTable[]): Promise<PlaceTable[]> {
    const userIds = [...new Set(rules.map((rule) => rule.user_id))];
    if (userIds.length === 0) return [];
    return db.selectFrom("places").selectAll().where("user_id", "in", userIds).orderBy("position").execute();
  }

  /** Current states of these rules, keyed "ruleId placeId" (one query per 500 rules, not one per pair). */
  async function statesOf(ruleIds: string[]): Promise<Map<string, AlertStateTable>> {
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

  /** The episodes that still matter for these users (open ones, and recent alerts for the cooldown), by pool. */
  async function poolsOf(userIds: string[], current: Date): Promise<Map<string, Pool>> {
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
        const key = `${row.user_id}|${row.rule_key}|${row.location_key}`;
        const pool = pools.get(key) ?? { open: [], lastAlertAt: null };
        pools.set(key, pool);
        const alertedAt = seconds(row.alerted_at);
        pool.lastAlertAt = Math.max(pool.lastAlertAt ?? alertedAt, alertedAt);
        if (row.closed_at === null)
          pool.open.push({ start: seconds(row.start), from: seconds(row.window_from), to: seconds(row.window_to), alertedAt, row });
      }
    }
    return pools;
  }

  type Decision = {
    messages: NewMessage[];
    opened: AlertEpisodeTable[];
    moved: AlertEpisodeTable[];
    closed: AlertEpisodeTable[];
    state: AlertStateTable | null;
  };

  /** What one rule and place call for now; the pool is updated as the decision will leave it. */
  function decide(
    { rule, place, settings }: Pair,
    watched: Watched | null,
    pool: Pool,
    stored: AlertStateTable | undefined,
  ): Decision | null {
    if (!watched) return null;
    const current = now();
    const base = { user_id: rule.user_id, rule_key: watchKey(rule, settings), location_key: coordinateKey(place) };
    const spec = ruleSpec(rule);
    const matches = matchesOf(spec, watched, current, settings.time_zone, pool.open);
    const plan = planEpisodes(matches, pool.open, {
      now: current,
      cooldownHours: rule.cooldown_hours,
      lastAlertAt: pool.lastAlertAt,
      shiftSeconds: spec.metric === "RAIN_SOON" ? SHOWER_SHIFT_SECONDS : undefined,
    });
    const decision: Decision = { messages: [], opened: [], moved: [], closed: [], state: null };

    for (const episode of plan.over) {
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
    pool.open = pool.open.filter((episode) => !plan.over.includes(episode));

    for (const { episode, from, to } of plan.seen) {
      if (episode.from === from && episode.to === to) continue;
      episode.row = { ...episode.row, window_from: iso(from), window_to: iso(to) };
      Object.assign(episode, { from, to });
      decision.moved.push(episode.row);
    }

    for (const match of plan.announce) {
      const row: AlertEpisodeTable = {
        ...base,
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

    const latest = pool.open.reduce<(typeof pool.open)[number] | null>(
      (last, episode) => (!last || episode.start > last.start ? episode : last),
      null,
    );
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
    if (changed) decision.state = state;
    const acts = decision.messages.length + decision.opened.length + decision.moved.length + decision.closed.length;
    return acts > 0 || decision.state ? decision : null;
  }

  /**
   * Writes decisions in transactions of up to 500: messages with their episodes and
   * states, all or nothing, so a crash mid-pass loses nothing (the next pass decides again).
   */
  async function apply(decisions: Decision[]): Promise<MessageTable[]> {
    const written: MessageTable[] = [];
    for (let start = 0; start < decisions.length; start += 500) {
      const chunk = decisions.slice(start, start + 500);
      const rows = await db.transaction().execute(async (trx) => {
        const inserted = await inbox.writeMany(
          chunk.flatMap((decision) => decision.messages),
          trx,
        );
        const opened = chunk.flatMap((decision) => decision.opened);
        if (opened.length > 0) {
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
        for (const row of chunk.flatMap((decision) => [...decision.moved, ...decision.closed])) {
          await trx
            .updateTable("alert_episodes")
            .set({ window_from: row.window_from, window_to: row.window_to, closed_at: row.closed_at })
            .where("user_id", "=", row.user_id)
            .where("rule_key", "=", row.rule_key)
            .where("location_key", "=", row.location_key)
            .where("start", "=", row.start)
            .execute();
        }
        const states = chunk.flatMap((decision) => (decision.state ? [decision.state] : []));
        if (states.length > 0) {
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
        return inserted;
      });
      written.push(...rows);
    }
    return written;
  }

  return {
    /** One pass over every enabled, unsnoozed rule (of the users in `scope`: an engine instance's shards). */
    async evaluateAll(scope: UserScope = null): Promise<{ alerts: number; allClears: number }> {
      const current = now().toISOString();
      const rules = await db
        .selectFrom("alert_rules")
        .selectAll()
        .where("enabled", "=", 1)
        .where((eb) => eb.or([eb("snoozed_until", "is", null), eb("snoozed_until", "<=", current)]))
        .$if(scope !== null, (query) => query.where((eb) => inScope(eb, "user_id", scope!)))
        // Two rules that watch the same thing share their episodes and the first to see one tells it:
        // an urgent rule first, so a duplicate that is not urgent cannot hold its push in quiet hours.
        .orderBy("urgent", "desc")
        .orderBy("created_at")
        .orderBy("id")
        .execute();
      const places = await placesFor(rules);
      const settingsRows = rules.length
        ? await db
            .selectFrom("settings")
            .selectAll()
            .where("user_id", "in", [...new Set(rules.map((rule) => rule.user_id))])
            .execute()
        : [];
      const settingsOf = new Map(settingsRows.map((row) => [row.user_id, row]));
      // Places by owner: each rule looks only at its user's places (10,000 rules × 1,000 places otherwise).
      const placesOf = new Map<string, PlaceTable[]>();
      for (const place of places) {
        const own = placesOf.get(place.user_id);
        if (own) own.push(place);
        else placesOf.set(place.user_id, [place]);
      }
      const pairs: Pair[] = rules.flatMap((rule) =>
        (placesOf.get(rule.user_id) ?? [])
          .filter((place) => rule.place_id === null || rule.place_id === place.id)
          .map((place) => ({ rule, place, settings: settingsOf.get(rule.user_id)! })),
      );
      // All places' forecasts are asked for at once: they go upstream together.
      const distinct = [...new Map(pairs.map((pair) => [pair.place.id, pair.place])).values()];
      const aqiPlaces = [
        ...new Map(pairs.filter((pair) => pair.rule.metric === "AQI").map((pair) => [pair.place.id, pair.place])).values(),
      ];
      // Both asked for before either is awaited: each kind goes upstream in one request.
      const airOfPlace = airQualityOf(aqiPlaces);
      const results = await Promise.allSettled(distinct.map((place) => forecasts.get(place)));
      const airOf = await airOfPlace;
      const forecastOf = new Map(
        distinct.map((place, index) => {
          const result = results[index]!;
          return [place.id, result.status === "fulfilled" ? result.value.forecast : null];
        }),
      );
      const states = await statesOf(rules.map((rule) => rule.id));
      const forgotten = new Date(now().getTime() - EPISODE_MEMORY_MS).toISOString();
      await db
        .deleteFrom("alert_episodes")
        .where("alerted_at", "<", forgotten)
        .where("window_to", "<", forgotten)
        .$if(scope !== null, (query) => query.where((eb) => inScope(eb, "user_id", scope!)))
        .execute();
      const pools = await poolsOf([...new Set(rules.map((rule) => rule.user_id))], now());
      const decisions = pairs.flatMap((pair) => {
        const key = `${pair.rule.user_id}|${watchKey(pair.rule, pair.settings)}|${coordinateKey(pair.place)}`;
        const pool = pools.get(key) ?? { open: [], lastAlertAt: null };
        pools.set(key, pool);
        const forecast = forecastOf.get(pair.place.id) ?? null;
        const hours = hoursFor(pair.rule.metric, forecast?.hourly ?? null, airOf.get(pair.place.id), pair.settings);
        const watched = forecast && hours ? { forecast, hours } : null;
        const decision = decide(pair, watched, pool, states.get(`${pair.rule.id} ${pair.place.id}`));
        return decision ? [decision] : [];
      });
      const written = await apply(decisions);
      for (const row of written) inbox.publish(row);
      const alerts = written.filter((row) => row.kind === "ALERT").length;
      const allClears = written.length - alerts;
      return { alerts, allClears };
    },

    /** When a rule would fire within its own look-ahead, for each of the places it covers. */
    async preview(userId: string, spec: RuleSpec, placeId: string | null): Promise<Array<Match & { place: PlaceTable }>> {
      const settings = await db.selectFrom("settings").selectAll().where("user_id", "=", userId).executeTakeFirstOrThrow();
      let query = db.selectFrom("places").selectAll().where("user_id", "=", userId).orderBy("position");
      if (placeId) query = query.where("id", "=", placeId);
      const places = await query.execute();
      const [results, airOf] = await Promise.all([
        Promise.all(places.map((place) => forecasts.get(place))),
        airQualityOf(spec.metric === "AQI" ? places : [], "throw"),
      ]);
      return places.flatMap((place, index) =>
        matchesOf(
          spec,
          {
            forecast: results[index]!.forecast,
            hours: hoursFor(spec.metric, results[index]!.forecast.hourly, airOf.get(place.id), settings) ?? [],
          },
          now(),
          settings.time_zone,
        ).map((match) => ({
          ...match,
          place,
        })),
      );
    },
  };
}

export type AlertService = ReturnType<typeof createAlertService>;
