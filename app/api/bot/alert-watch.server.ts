import type { AlertRuleTable } from "../db/tables";
import type { AirQualityScale, AlertMetric, Comparator, Condition } from "../../shared/schema-enums.generated";
import type { AirQuality } from "../weather/air-quality";
import type { Forecast, HourlyForecast } from "../weather/forecast";
import { withAirQuality } from "./air-quality-hours";
import { findMatches, type AlertHour, type Episode, type Match, type RuleSpec } from "./alert-evaluator";
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
    aqiScale: row.metric === "AQI" ? (row.aqi_scale as AirQualityScale | null) : null,
  };
}

/**
 * What a rule watches for its episodes (ruleKey), and for an AQI rule the scale its points are on (its own since
 * decision 031; before, the owner's of the day, which 0019 wrote into each rule, so the keys did not change).
 */
export function watchKey(rule: AlertRuleTable): string {
  const key = ruleKey(rule);
  return rule.metric === "AQI" ? `${key}|${rule.aqi_scale}` : key;
}

/** What a rule reads at a place: the forecast, and its hours as the rule sees them (with the AQI for an AQI rule). */
export type Watched = { forecast: Forecast; hours: readonly AlertHour[] };

/**
 * The hours a rule reads at a place: the forecast's, with the AQI on the rule's own scale for an AQI rule, whatever
 * its owner reads now (null: none to read).
 */
export function hoursFor(
  spec: Pick<RuleSpec, "metric" | "aqiScale">,
  hourly: readonly HourlyForecast[] | null,
  air: AirQuality | null | undefined,
): readonly AlertHour[] | null {
  if (spec.metric !== "AQI" || !hourly) return hourly;
  return air && spec.aqiScale ? withAirQuality(hourly, air, spec.aqiScale) : null;
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
