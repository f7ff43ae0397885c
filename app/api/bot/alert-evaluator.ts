import type { AirQualityScale, AlertMetric, Comparator, Condition, Weekday } from "../../shared/schema-enums.generated";
import { conditionOf, type HourlyForecast } from "../weather/forecast";
import { zonedParts } from "./zoned-time";

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
  /** For AQI: the scale its threshold's points are on, the rule's own (decision 031); none: no index is read. */
  aqiScale?: AirQualityScale | null;
};

/** An hour as a rule sees it: the forecast's, with the air quality index on the rule's scale for AQI rules (null or absent: none). */
export type AlertHour = HourlyForecast & { aqi?: number | null };

/** A stretch of consecutive hours that cross the rule, with its worst hour. Times are epoch seconds. */
export type Match = { from: number; to: number; peakAt: number; peakValue: number };

export function metricValue(hour: AlertHour, metric: AlertMetric): number {
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
    case "AQI":
      // An hour without an index never crosses: NaN is neither at least nor at most anything.
      return hour.aqi ?? Number.NaN;
    case "CONDITION":
      return hour.weatherCode;
    case "RAIN_SOON":
      // Watched in quarter hours (rain-soon.ts), not hours: an hour's figure is its rain.
      return hour.precipitation;
  }
}

export function crosses(rule: RuleSpec, hour: AlertHour): boolean {
  if (rule.metric === "CONDITION") return rule.conditions.includes(conditionOf(hour.weatherCode));
  const value = metricValue(hour, rule.metric);
  return rule.comparator === "AT_LEAST" ? value >= rule.threshold! : value <= rule.threshold!;
}

/** Is this hour inside the rule's active days and time window, in the user's zone? */
export function isActiveHour(rule: Pick<RuleSpec, "activeDays" | "activeFrom" | "activeTo">, instant: Date, timeZone: string): boolean {
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
export function findMatches(rule: RuleSpec, hourly: readonly AlertHour[], now: Date, timeZone: string): Match[] {
  const start = Math.floor(now.getTime() / 3_600_000) * 3600;
  const end = start + rule.lookaheadHours * 3600;
  const matches: Match[] = [];
  let current: Match | null = null;
  const worse = (a: number, b: number) => (rule.metric === "CONDITION" || rule.comparator === "AT_LEAST" ? a > b : a < b);
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

/**
 * Two windows are one episode when they overlap, or when one starts at most this long before
 * or after the other: a forecast refresh that moves a storm by an hour, or splits it around
 * a calmer hour, is the same storm to the person who was told about it.
 */
export const EPISODE_SHIFT_HOURS = 2;

/** An announced crossing, as last seen in the forecast. `start` (its first window's start) names it. Epoch seconds. */
export type Episode = { start: number; from: number; to: number; alertedAt: number };

export type EpisodePlan<E extends Episode = Episode> = {
  /** New windows, each a new episode to announce now. */
  announce: Match[];
  /** Announced episodes still in the forecast, with their window as now seen. */
  seen: Array<{ episode: E; from: number; to: number }>;
  /** Announced episodes that are over: passed, or gone from the forecast for longer than the cooldown. */
  over: E[];
};

const overlaps = (a: { from: number; to: number }, b: { from: number; to: number }) => a.from < b.to && b.from < a.to;

/** The open episode a window belongs to: one it overlaps, else the one whose start is nearest within the shift. */
function episodeOf<E extends Episode>(window: Match, open: readonly E[], shiftSeconds: number): E | null {
  const overlapping = open.find((episode) => overlaps(window, episode));
  if (overlapping) return overlapping;
  let best: E | null = null;
  for (const episode of open) {
    const shift = Math.abs(window.from - episode.from);
    if (shift <= shiftSeconds && (!best || shift < Math.abs(window.from - best.from))) best = episode;
  }
  return best;
}

/**
 * What one pass does with a rule at a place, given the windows it crosses now and the
 * episodes already announced there (one ALERT per episode, never one per pass):
 * - a window that belongs to an open episode is that episode, moved or grown;
 * - every other window is a new episode, announced now, unless an alert went out less than
 *   `cooldownHours` ago: then it waits, and is announced once the cooldown is over if it is
 *   still ahead (the cooldown is "wait before alerting again"). A snooze that ended after that
 *   alert ends the wait with it: the person asked for quiet until then, and a crossing still
 *   ahead when it ends is news they have not had (it may be over before a long cooldown is);
 * - an open episode with no window is over once its window has passed, or, when it only
 *   dropped out of the forecast, once the cooldown since its alert is over (a storm that
 *   flickers out of one refresh and back into the next is not "all clear").
 */
export function planEpisodes<E extends Episode>(
  matches: readonly Match[],
  open: readonly E[],
  {
    now,
    cooldownHours,
    lastAlertAt,
    shiftSeconds = EPISODE_SHIFT_HOURS * 3600,
    snoozeEndedAt = null,
  }: { now: Date; cooldownHours: number; lastAlertAt: number | null; shiftSeconds?: number; snoozeEndedAt?: number | null },
): EpisodePlan<E> {
  const current = now.getTime() / 1000;
  const cooldown = cooldownHours * 3600;
  const windows = new Map<E, { from: number; to: number }>();
  const fresh: Match[] = [];
  for (const match of matches) {
    const episode = episodeOf(match, open, shiftSeconds);
    if (!episode) {
      fresh.push(match);
      continue;
    }
    const window = windows.get(episode);
    windows.set(
      episode,
      window ? { from: Math.min(window.from, match.from), to: Math.max(window.to, match.to) } : { from: match.from, to: match.to },
    );
  }
  const snoozedSince = snoozeEndedAt !== null && lastAlertAt !== null && snoozeEndedAt > lastAlertAt && snoozeEndedAt <= current;
  const cooled = lastAlertAt === null || current >= lastAlertAt + cooldown || snoozedSince;
  return {
    announce: cooled ? fresh : [],
    seen: [...windows].map(([episode, window]) => ({ episode, ...window })),
    over: open.filter((episode) => !windows.has(episode) && (episode.to <= current || current >= episode.alertedAt + cooldown)),
  };
}
