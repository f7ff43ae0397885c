import { conditionOf, type Condition, type HourlyForecast } from "../weather/forecast";
import { zonedParts, type Weekday } from "./zoned-time";

export const ALERT_METRICS = [
  "TEMPERATURE",
  "APPARENT_TEMPERATURE",
  "PRECIPITATION",
  "PRECIPITATION_PROBABILITY",
  "SNOWFALL",
  "WIND_SPEED",
  "WIND_GUSTS",
  "UV_INDEX",
  "CONDITION",
] as const;
export type AlertMetric = (typeof ALERT_METRICS)[number];
export type Comparator = "AT_LEAST" | "AT_MOST";

export type RuleSpec = {
  metric: AlertMetric;
  comparator: Comparator;
  /** Metric units (°C, mm, %, cm, km/h, index); unused for CONDITION. */
  threshold: number | null;
  /** For CONDITION: the conditions that count. */
  conditions: readonly Condition[];
  lookaheadHours: number;
  activeDays: readonly Weekday[];
  /** "HH:MM" in the user's zone; both null = all day. A window may wrap midnight (22:00–06:00). */
  activeFrom: string | null;
  activeTo: string | null;
};

/** A stretch of consecutive hours that cross the rule, with its worst hour. Times are epoch seconds. */
export type Match = { from: number; to: number; peakAt: number; peakValue: number };

export function metricValue(hour: HourlyForecast, metric: AlertMetric): number {
  switch (metric) {
    case "TEMPERATURE":
      return hour.temperature;
    case "APPARENT_TEMPERATURE":
      return hour.apparentTemperature;
    case "PRECIPITATION":
      return hour.precipitation;
    case "PRECIPITATION_PROBABILITY":
      return hour.precipitationProbability;
    case "SNOWFALL":
      return hour.snowfall;
    case "WIND_SPEED":
      return hour.windSpeed;
    case "WIND_GUSTS":
      return hour.windGusts;
    case "UV_INDEX":
      return hour.uvIndex;
    case "CONDITION":
      return hour.weatherCode;
  }
}

function crosses(rule: RuleSpec, hour: HourlyForecast): boolean {
  if (rule.metric === "CONDITION") return rule.conditions.includes(conditionOf(hour.weatherCode));
  const value = metricValue(hour, rule.metric);
  return rule.comparator === "AT_LEAST" ? value >= rule.threshold! : value <= rule.threshold!;
}

/** Is this hour inside the rule's active days and time window, in the user's zone? */
export function isActiveHour(rule: RuleSpec, instant: Date, timeZone: string): boolean {
  if (rule.activeDays.length === 7 && (!rule.activeFrom || !rule.activeTo)) return true;
  const local = zonedParts(instant, timeZone);
  if (!rule.activeDays.includes(local.weekday)) return false;
  if (!rule.activeFrom || !rule.activeTo) return true;
  const time = local.time;
  return rule.activeFrom <= rule.activeTo
    ? time >= rule.activeFrom && time < rule.activeTo
    : time >= rule.activeFrom || time < rule.activeTo;
}

/**
 * Every window that starts in the next `lookaheadHours` (from the hour now running)
 * where the forecast crosses the rule inside its active days and hours. A window that
 * runs on past the look-ahead is followed to its end, so a message can name it whole.
 */
export function findMatches(rule: RuleSpec, hourly: readonly HourlyForecast[], now: Date, timeZone: string): Match[] {
  const start = Math.floor(now.getTime() / 3_600_000) * 3600;
  const end = start + rule.lookaheadHours * 3600;
  const matches: Match[] = [];
  let current: Match | null = null;
  const worse = (a: number, b: number) =>
    rule.metric === "CONDITION" || rule.comparator === "AT_LEAST" ? a > b : a < b;
  for (const hour of hourly) {
    if (hour.time < start) continue;
    const continuing = current !== null && current.to === hour.time;
    if (hour.time >= end && !continuing) break;
    const hit = isActiveHour(rule, new Date(hour.time * 1000), timeZone) && crosses(rule, hour);
    if (!hit) {
      if (hour.time >= end) break;
      current = null;
      continue;
    }
    const value = metricValue(hour, rule.metric);
    if (current && current.to === hour.time) {
      current.to = hour.time + 3600;
      if (worse(value, current.peakValue)) {
        current.peakValue = value;
        current.peakAt = hour.time;
      }
    } else {
      current = { from: hour.time, to: hour.time + 3600, peakAt: hour.time, peakValue: value };
      matches.push(current);
    }
  }
  return matches;
}
