import { RAIN_MM_PER_QUARTER } from "../../shared/nowcast";
import type { QuarterHourPrecipitation } from "../weather/forecast";
import { isActiveHour, type Match, type RuleSpec } from "./alert-evaluator";

export const QUARTER_SECONDS = 900;

/**
 * A refresh that moves a shower by up to this much (or splits it) still names the same shower:
 * quarter hours, not the hours that hourly rules forgive (EPISODE_SHIFT_HOURS), because two
 * showers an hour apart are two showers to someone deciding when to go out.
 */
export const SHOWER_SHIFT_SECONDS = 30 * 60;

/** Each run of wet quarter hours: from the first one's start to the last one's end, with the wettest quarter. */
export function showers(quarters: readonly QuarterHourPrecipitation[]): Match[] {
  const found: Match[] = [];
  let current: Match | null = null;
  for (const quarter of quarters) {
    if (quarter.precipitation < RAIN_MM_PER_QUARTER) {
      current = null;
      continue;
    }
    if (current && current.to === quarter.time) {
      current.to = quarter.time + QUARTER_SECONDS;
      if (quarter.precipitation > current.peakValue) Object.assign(current, { peakAt: quarter.time, peakValue: quarter.precipitation });
    } else {
      current = { from: quarter.time, to: quarter.time + QUARTER_SECONDS, peakAt: quarter.time, peakValue: quarter.precipitation };
      found.push(current);
    }
  }
  return found;
}

/**
 * What a "rain starting soon" rule sees now: each shower that starts from the quarter hour now
 * running to `threshold` minutes ahead, inside the rule's active days and hours. Rain already
 * falling where the nowcast begins is not "starting" (it may have begun before anyone looked).
 * Showers under way that overlap an episode already told (`told`) are kept too, so the episode
 * follows its shower to its real end instead of closing early and being told again.
 */
export function findShowers(
  rule: Pick<RuleSpec, "threshold" | "activeDays" | "activeFrom" | "activeTo">,
  quarters: readonly QuarterHourPrecipitation[],
  now: Date,
  timeZone: string,
  told: ReadonlyArray<{ from: number; to: number }> = [],
): Match[] {
  const current = now.getTime() / 1000;
  const runningQuarter = Math.floor(current / QUARTER_SECONDS) * QUARTER_SECONDS;
  const horizon = current + (rule.threshold ?? 0) * 60;
  const first = quarters[0]?.time;
  return showers(quarters).filter((shower) => {
    const starting =
      shower.from > first! &&
      shower.from >= runningQuarter &&
      shower.from <= horizon &&
      isActiveHour(rule, new Date(shower.from * 1000), timeZone);
    const followed = shower.to > current && told.some((episode) => episode.from < shower.to && shower.from < episode.to);
    return starting || followed;
  });
}
