import type { Condition } from "./schema-enums.generated";
import { RAIN_MM_PER_QUARTER, type QuarterHourStep } from "./nowcast";

/** How hard it falls, by a quarter hour's millimetres: the usual 2.5 and 7.6 mm an hour, in quarters. */
export type Intensity = "light" | "moderate" | "heavy";
export const intensityOf = (mmPerQuarter: number): Intensity =>
  mmPerQuarter < 0.625 ? "light" : mmPerQuarter < 1.9 ? "moderate" : "heavy";

/** What falls: snow in a snowy condition or at freezing, else rain. */
export type Fall = "rain" | "snow";

const WET: ReadonlySet<Condition> = new Set([
  "DRIZZLE",
  "FREEZING_DRIZZLE",
  "RAIN",
  "FREEZING_RAIN",
  "SNOW",
  "SNOW_GRAINS",
  "RAIN_SHOWERS",
  "SNOW_SHOWERS",
  "THUNDERSTORM",
  "THUNDERSTORM_WITH_HAIL",
]);
const SNOWY: ReadonlySet<Condition> = new Set(["SNOW", "SNOW_GRAINS", "SNOW_SHOWERS"]);
const STORMY: ReadonlySet<Condition> = new Set(["THUNDERSTORM", "THUNDERSTORM_WITH_HAIL"]);

/**
 * The header's one sentence, in terms the texts word: the provider's condition for the hour and the
 * nowcast's quarter hours can disagree (an hour called "Rain" that is dry for its first quarters), and the
 * nowcast is the finer of the two, so whatever it knows decides whether something falls now.
 *
 * - `condition`: the condition as it is (dry now and for 2 hours, or no nowcast).
 * - `dryNow`: a wet condition the nowcast sees nothing of.
 * - `startsAt`: dry now, something falls from `at`; `conditionWet` says the condition cannot be named beside it.
 * - `until`: falling now, stops at `at`.
 * - `changesAt`: falling now, `heavier` or `lighter` from `at`.
 * - `throughout`: falling now and for the next 2 hours, no change of intensity.
 * `word` is what falls now as the sentence names it: a thunderstorm is named by its condition.
 */
export type Headline =
  | { kind: "condition" }
  | { kind: "dryNow" }
  | { kind: "startsAt"; at: string; fall: Fall; conditionWet: boolean }
  | { kind: "until"; at: string; word: FallWord }
  | { kind: "changesAt"; at: string; word: FallWord; change: "heavier" | "lighter" }
  | { kind: "throughout"; word: FallWord };

export type FallWord = { kind: "condition" } | { kind: "fall"; fall: Fall; intensity: Intensity };

const RANK: Record<Intensity, number> = { light: 0, moderate: 1, heavy: 2 };

export function weatherHeadline(
  current: { condition: Condition; temperature: number },
  steps: readonly QuarterHourStep[],
  now: number,
): Headline {
  const wetCondition = WET.has(current.condition);
  // A quarter hour already over is history, not "now".
  const ahead = steps.filter((step, i) => i === steps.length - 1 || Date.parse(steps[i + 1]!.time) > now);
  if (ahead.length === 0) return { kind: "condition" };
  const fall: Fall = SNOWY.has(current.condition) || current.temperature <= 0 ? "snow" : "rain";
  const wet = ahead.map((step) => step.precipitation >= RAIN_MM_PER_QUARTER);
  if (!wet[0]) {
    const start = wet.indexOf(true);
    if (start === -1) return wetCondition ? { kind: "dryNow" } : { kind: "condition" };
    return { kind: "startsAt", at: ahead[start]!.time, fall, conditionWet: wetCondition };
  }
  const word = (mm: number): FallWord =>
    STORMY.has(current.condition) ? { kind: "condition" } : { kind: "fall", fall, intensity: intensityOf(mm) };
  const stop = wet.indexOf(false);
  if (stop !== -1) return { kind: "until", at: ahead[stop]!.time, word: word(ahead[0]!.precipitation) };
  const first = intensityOf(ahead[0]!.precipitation);
  const change = ahead.findIndex((step) => intensityOf(step.precipitation) !== first);
  if (change === -1 || STORMY.has(current.condition)) return { kind: "throughout", word: word(ahead[0]!.precipitation) };
  const later = intensityOf(ahead[change]!.precipitation);
  return {
    kind: "changesAt",
    at: ahead[change]!.time,
    word: word(ahead[0]!.precipitation),
    change: RANK[later] > RANK[first] ? "heavier" : "lighter",
  };
}
