import type { AlertRuleTable, SettingsTable } from "../db/tables";
import type { AlertMetric, Comparator, Condition } from "../../shared/schema-enums.generated";
import type { AirQuality } from "../weather/air-quality";
import type { Forecast, HourlyForecast } from "../weather/forecast";
import { withAirQuality } from "./air-quality-hours";
import { findMatches, type AlertHour, type Episode, type Match, type RuleSpec } from "./alert-evaluator";
import { ownerAqiScale } from "./alert-text.server";
import { parseDays } from "./briefings.server";
import { findShowers } from "./rain-soon";
import { ruleKey } from "./rule-key";

/** A stored rule as the evaluator reads it. */
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

/**
 * What a rule watches for its episodes (ruleKey), and for an AQI rule the scale its points are on:
 * a reader who changes units (and so scales) starts afresh, rather than having the other scale's
 * lower figures read as the smoke being over (an all-clear while it goes on).
 */
export function watchKey(rule: AlertRuleTable, settings: SettingsTable): string {
  const key = ruleKey(rule);
  return rule.metric === "AQI" ? `${key}|${ownerAqiScale(settings)}` : key;
}

/** What a rule reads at a place: the forecast, and its hours as the rule sees them (with the AQI for an AQI rule). */
export type Watched = { forecast: Forecast; hours: readonly AlertHour[] };

/** The hours a rule reads at a place: the forecast's, with the AQI on the user's scale for an AQI rule (null: none to read). */
export function hoursFor(
  metric: string,
  hourly: readonly HourlyForecast[] | null,
  air: AirQuality | null | undefined,
  settings: SettingsTable,
): readonly AlertHour[] | null {
  if (metric !== "AQI" || !hourly) return hourly;
  return air ? withAirQuality(hourly, air, ownerAqiScale(settings)) : null;
}

/**
 * The windows a rule sees now: hours crossing its threshold, or for RAIN_SOON the showers of the
 * quarter-hour nowcast starting within its minutes (and those under way that belong to an episode
 * already told, `told`).
 */
export function matchesOf(
  spec: RuleSpec,
  { forecast, hours }: Watched,
  now: Date,
  timeZone: string,
  told: ReadonlyArray<Episode> = [],
): Match[] {
  return spec.metric === "RAIN_SOON"
    ? findShowers(spec, forecast.minutely15 ?? [], now, timeZone, told)
    : findMatches(spec, hours, now, timeZone);
}
