/** A quarter hour of the nowcast: its start and the precipitation in it (mm). */
export type QuarterHourStep = { time: string; precipitation: number };

/** From this much in a quarter hour on, it rains (less is a trace no one notices). */
export const RAIN_MM_PER_QUARTER = 0.1;

/** What the next 2 hours hold, as the card's line says it. */
export type NowcastSummary =
  | { kind: "dry" }
  | { kind: "starting"; minutes: number }
  | { kind: "stopping"; minutes: number }
  | { kind: "continuing" }
  | { kind: "unknown" };

/** Minutes to a moment, "about" as a person says it: in fives, at least 5. */
const aboutMinutes = (ms: number) => Math.max(5, Math.round(ms / 300_000) * 5);

/**
 * The next 2 hours in one line's terms: rain starting, rain stopping, rain throughout, or none.
 * `steps` start with the quarter hour now running (the API's nowcast).
 */
export function summarizeNowcast(steps: readonly QuarterHourStep[], now: number): NowcastSummary {
  if (steps.length === 0) return { kind: "unknown" };
  const wet = steps.map((step) => step.precipitation >= RAIN_MM_PER_QUARTER);
  const change = wet.findIndex((isWet) => isWet !== wet[0]);
  if (change === -1) return { kind: wet[0] ? "continuing" : "dry" };
  const minutes = aboutMinutes(Date.parse(steps[change]!.time) - now);
  return wet[0] ? { kind: "stopping", minutes } : { kind: "starting", minutes };
}
