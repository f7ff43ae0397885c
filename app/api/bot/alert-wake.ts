import { crosses, isActiveHour, type Episode, type RuleSpec } from "./alert-evaluator";
import { QUARTER_SECONDS, showers } from "./rain-soon";
import type { Watched } from "./alert-watch.server";

const HOUR = 3600;

/** What a rule's answer at one place depends on besides the weather: the episodes of its pool, and its cooldown. */
export type WakeInputs = {
  spec: RuleSpec;
  /** What it read there (null: nothing could be read, so it tries again at the next pass). */
  watched: Watched | null;
  open: readonly Episode[];
  lastAlertAt: number | null;
  cooldownHours: number;
  timeZone: string;
};

/**
 * The first instant after `current` (epoch seconds) at which a rule's answer at a place can differ
 * with the same weather, or null if none can (decision 026). Every instant where the evaluator
 * compares the clock is a candidate: the look-ahead's start and end passing an hour that crosses
 * (findMatches), a shower entering the minutes watched, leaving the running quarter or ending
 * (findShowers), an episode's window ending, its cooldown or the rule's running out (planEpisodes).
 * Hours that do not cross cannot change a match as they come and go, so a rule that is never
 * crossed sleeps until its weather changes.
 */
export function nextWake(inputs: WakeInputs, current: number): number | null {
  if (!inputs.watched) return current;
  const candidates = [...weatherBoundaries(inputs), ...episodeBoundaries(inputs)];
  let soonest: number | null = null;
  for (const at of candidates) if (at > current && (soonest === null || at < soonest)) soonest = at;
  return soonest;
}

function weatherBoundaries({ spec, watched, timeZone }: WakeInputs): number[] {
  if (spec.metric === "RAIN_SOON") {
    const ahead = (spec.threshold ?? 0) * 60;
    return showers(watched!.forecast.minutely15 ?? []).flatMap((shower) => [shower.from - ahead, shower.from + QUARTER_SECONDS, shower.to]);
  }
  const lookahead = spec.lookaheadHours * HOUR;
  const at: number[] = [];
  for (const hour of watched!.hours) {
    // Crossing is checked first: the active hours need the time zone's calendar, which costs more.
    if (!crosses(spec, hour) || !isActiveHour(spec, new Date(hour.time * 1000), timeZone)) continue;
    // It enters the look-ahead when the window's end passes it, and leaves when its start does.
    at.push(hour.time - lookahead + HOUR, hour.time + HOUR);
  }
  return at;
}

function episodeBoundaries({ open, lastAlertAt, cooldownHours }: WakeInputs): number[] {
  const cooldown = cooldownHours * HOUR;
  const at = open.flatMap((episode) => [episode.to, episode.alertedAt + cooldown]);
  if (lastAlertAt !== null) at.push(lastAlertAt + cooldown);
  return at;
}
