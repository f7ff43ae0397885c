import type { Db } from "../db/database.server";
import type { AlertRuleTable, AlertStateTable, MessageTable, PlaceTable, SettingsTable } from "../db/tables";
import type { Condition } from "../weather/forecast";
import type { ForecastService } from "../weather/forecast-service.server";
import { findMatches, type AlertMetric, type Comparator, type Match, type RuleSpec } from "./alert-evaluator";
import { alertMessage, allClearMessage } from "./alert-text.server";
import { parseDays, readerSettings } from "./briefings.server";
import type { Inbox } from "./inbox.server";

export const PREVIEW_HOURS = 72;

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

  async function evaluatePair(
    { rule, place, settings }: Pair,
    hourly: Parameters<typeof findMatches>[1] | null,
    state: AlertStateTable | undefined,
  ) {
    if (!hourly) return null;
    const current = now();
    const matches = findMatches(ruleSpec(rule), hourly, current, settings.time_zone);
    const reader = readerSettings(settings);
    const first = matches[0];

    if (first && state?.state !== "TRIGGERED") {
      const episodeStart = new Date(first.from * 1000).toISOString();
      return db.transaction().execute(async (trx) => {
        const text = alertMessage({ name: rule.name, metric: rule.metric as AlertMetric }, place.label, first, reader, current);
        const row = await inbox.write(
          {
            userId: rule.user_id,
            kind: "ALERT",
            ...text,
            urgent: rule.urgent === 1,
            placeId: place.id,
            alertRuleId: rule.id,
            match: { ...first, placeId: place.id },
            dedupeKey: `alert:${rule.id}:${place.id}:${episodeStart}`,
          },
          trx,
        );
        const values = { rule_id: rule.id, place_id: place.id, state: "TRIGGERED", episode_start: episodeStart, last_triggered_at: current.toISOString() };
        await trx
          .insertInto("alert_states")
          .values(values)
          .onConflict((conflict) => conflict.columns(["rule_id", "place_id"]).doUpdateSet(values))
          .execute();
        return row;
      });
    }

    if (!first && state?.state === "TRIGGERED") {
      const cooledAt = Date.parse(state.last_triggered_at ?? "") + rule.cooldown_hours * 3_600_000;
      if (current.getTime() < cooledAt) return null;
      return db.transaction().execute(async (trx) => {
        const row =
          rule.notify_all_clear === 1
            ? await inbox.write(
                {
                  userId: rule.user_id,
                  kind: "ALL_CLEAR",
                  ...allClearMessage(rule, place.label, reader),
                  placeId: place.id,
                  alertRuleId: rule.id,
                  dedupeKey: `all-clear:${rule.id}:${place.id}:${state.episode_start}`,
                },
                trx,
              )
            : null;
        await trx
          .updateTable("alert_states")
          .set({ state: "ARMED", episode_start: null })
          .where("rule_id", "=", rule.id)
          .where("place_id", "=", place.id)
          .where("state", "=", "TRIGGERED")
          .execute();
        return row;
      });
    }
    return null;
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
      const pairs: Pair[] = rules.flatMap((rule) =>
        places
          .filter((place) => place.user_id === rule.user_id && (rule.place_id === null || rule.place_id === place.id))
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
      let alerts = 0;
      let allClears = 0;
      for (const pair of pairs) {
        const state = states.get(`${pair.rule.id} ${pair.place.id}`);
        const row: MessageTable | null = await evaluatePair(pair, hourlyOf.get(pair.place.id) ?? null, state);
        if (!row) continue;
        inbox.publish(row);
        if (row.kind === "ALERT") alerts++;
        else allClears++;
      }
      return { alerts, allClears };
    },

    /** When a rule would fire over the next 72 hours, for each of the places it covers. */
    async preview(userId: string, spec: RuleSpec, placeId: string | null): Promise<Array<Match & { place: PlaceTable }>> {
      const settings = await db.selectFrom("settings").selectAll().where("user_id", "=", userId).executeTakeFirstOrThrow();
      let query = db.selectFrom("places").selectAll().where("user_id", "=", userId).orderBy("position");
      if (placeId) query = query.where("id", "=", placeId);
      const places = await query.execute();
      const results = await Promise.all(places.map((place) => forecasts.get(place)));
      return places.flatMap((place, index) =>
        findMatches({ ...spec, lookaheadHours: PREVIEW_HOURS }, results[index]!.forecast.hourly, now(), settings.time_zone).map((match) => ({
          ...match,
          place,
        })),
      );
    },
  };
}

export type AlertService = ReturnType<typeof createAlertService>;
