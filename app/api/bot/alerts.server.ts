import type { Db } from "../db/database.server";
import type { AlertRuleTable, AlertStateTable, MessageTable, PlaceTable, SettingsTable } from "../db/tables";
import type { Condition } from "../weather/forecast";
import type { ForecastService } from "../weather/forecast-service.server";
import { findMatches, type AlertMetric, type Comparator, type Match, type RuleSpec } from "./alert-evaluator";
import { alertMessage, allClearMessage } from "./alert-text.server";
import { settingsView } from "../db/settings-rows";
import { parseDays } from "./briefings.server";
import type { Inbox } from "./inbox.server";

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
 * The alert engine. Per rule and place, a small state machine: ARMED → TRIGGERED when
 * the forecast crosses the rule (one ALERT naming the window and the peak) → ARMED again
 * once the crossing is gone and the cooldown has passed (ALL_CLEAR if asked). Messages
 * are keyed by rule, place and episode, so a repeated pass or a second process cannot
 * write one twice; state and message change in one transaction.
 */
export function createAlertService({ db, inbox, forecasts, now }: { db: Db; inbox: Inbox; forecasts: ForecastService; now: () => Date }) {
  async function placesFor(rules: AlertRuleTable[]): Promise<PlaceTable[]> {
    const userIds = [...new Set(rules.map((rule) => rule.user_id))];
    if (userIds.length === 0) return [];
    return db.selectFrom("places").selectAll().where("user_id", "in", userIds).orderBy("position").execute();
  }

  /** Current states of these rules, keyed "ruleId placeId" (one query per 500 rules, not one per pair). */
  async function statesOf(ruleIds: string[]): Promise<Map<string, AlertStateTable>> {
    const states = new Map<string, AlertStateTable>();
    for (let start = 0; start < ruleIds.length; start += 500) {
      const rows = await db.selectFrom("alert_states").selectAll().where("rule_id", "in", ruleIds.slice(start, start + 500)).execute();
      for (const row of rows) states.set(`${row.rule_id} ${row.place_id}`, row);
    }
    return states;
  }

  /** What one rule and place call for now: nothing, an alert, or a re-arm (with an optional all-clear). */
  function decide({ rule, place, settings }: Pair, hourly: Parameters<typeof findMatches>[1] | null, state: AlertStateTable | undefined) {
    if (!hourly) return null;
    const current = now();
    const reader = settingsView(settings);
    const first = findMatches(ruleSpec(rule), hourly, current, settings.time_zone)[0];
    if (first && state?.state !== "TRIGGERED") {
      const episodeStart = new Date(first.from * 1000).toISOString();
      const text = alertMessage({ name: rule.name, metric: rule.metric as AlertMetric }, place.label, first, reader, current);
      return {
        message: {
          userId: rule.user_id,
          kind: "ALERT" as const,
          ...text,
          urgent: rule.urgent === 1,
          placeId: place.id,
          alertRuleId: rule.id,
          match: { ...first, placeId: place.id },
          dedupeKey: `alert:${rule.id}:${place.id}:${episodeStart}`,
        },
        state: { rule_id: rule.id, place_id: place.id, state: "TRIGGERED", episode_start: episodeStart, last_triggered_at: current.toISOString() },
      };
    }
    if (!first && state?.state === "TRIGGERED") {
      const cooledAt = Date.parse(state.last_triggered_at ?? "") + rule.cooldown_hours * 3_600_000;
      if (current.getTime() < cooledAt) return null;
      return {
        message:
          rule.notify_all_clear === 1
            ? {
                userId: rule.user_id,
                kind: "ALL_CLEAR" as const,
                ...allClearMessage(rule, place.label, reader),
                placeId: place.id,
                alertRuleId: rule.id,
                dedupeKey: `all-clear:${rule.id}:${place.id}:${state.episode_start}`,
              }
            : null,
        state: { rule_id: rule.id, place_id: place.id, state: "ARMED", episode_start: null, last_triggered_at: state.last_triggered_at },
      };
    }
    return null;
  }

  type Decision = NonNullable<ReturnType<typeof decide>>;

  /**
   * Writes decisions in transactions of up to 500: each message with its state change,
   * all or nothing, so a crash mid-pass loses nothing (the next pass decides again).
   */
  async function apply(decisions: Decision[]): Promise<MessageTable[]> {
    const written: MessageTable[] = [];
    for (let start = 0; start < decisions.length; start += 500) {
      const chunk = decisions.slice(start, start + 500);
      const rows = await db.transaction().execute(async (trx) => {
        const inserted = await inbox.writeMany(
          chunk.flatMap((decision) => (decision.message ? [decision.message] : [])),
          trx,
        );
        await trx
          .insertInto("alert_states")
          .values(chunk.map((decision) => decision.state))
          .onConflict((conflict) =>
            conflict.columns(["rule_id", "place_id"]).doUpdateSet((eb) => ({
              state: eb.ref("excluded.state"),
              episode_start: eb.ref("excluded.episode_start"),
              last_triggered_at: eb.ref("excluded.last_triggered_at"),
            })),
          )
          .execute();
        return inserted;
      });
      written.push(...rows);
    }
    return written;
  }

  return {
    /** One pass over every enabled, unsnoozed rule. */
    async evaluateAll(): Promise<{ alerts: number; allClears: number }> {
      const current = now().toISOString();
      const rules = await db
        .selectFrom("alert_rules")
        .selectAll()
        .where("enabled", "=", 1)
        .where((eb) => eb.or([eb("snoozed_until", "is", null), eb("snoozed_until", "<=", current)]))
        .execute();
      const places = await placesFor(rules);
      const settingsRows = rules.length
        ? await db.selectFrom("settings").selectAll().where("user_id", "in", [...new Set(rules.map((rule) => rule.user_id))]).execute()
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
      const results = await Promise.allSettled(distinct.map((place) => forecasts.get(place)));
      const hourlyOf = new Map(
        distinct.map((place, index) => {
          const result = results[index]!;
          return [place.id, result.status === "fulfilled" ? result.value.forecast.hourly : null];
        }),
      );
      const states = await statesOf(rules.map((rule) => rule.id));
      const decisions = pairs.flatMap((pair) => {
        const decision = decide(pair, hourlyOf.get(pair.place.id) ?? null, states.get(`${pair.rule.id} ${pair.place.id}`));
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
      const results = await Promise.all(places.map((place) => forecasts.get(place)));
      return places.flatMap((place, index) =>
        findMatches(spec, results[index]!.forecast.hourly, now(), settings.time_zone).map((match) => ({
          ...match,
          place,
        })),
      );
    },
  };
}

export type AlertService = ReturnType<typeof createAlertService>;
