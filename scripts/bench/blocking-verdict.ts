import { median } from "./median";

/** Issue 35's budget: visitor and signed-in Total Blocking Time at most this many times the bare page's, in one run. */
export const BLOCKING_BUDGET = { ratioOfBare: 2, minRounds: 5 };

export type BlockingVerdict = {
  medianMs: number;
  bareMedianMs: number;
  /** The most the page may block: the budget's ratio times the bare page's median. */
  limitMs: number;
  /** Null where the bare page's median is 0 ms (the limit is then 0 ms too). */
  ratio: number | null;
  /** Null with fewer rounds than the budget asks for: single Lighthouse runs range from 0 to 500 ms on every page. */
  within: boolean | null;
  /** Rounds in which the page blocked at most the ratio times the bare page of the same round (a second view of the noise). */
  roundsWithin: number;
  rounds: number;
};

/**
 * Medians over alternating rounds, compared at the budget's ratio. The bare page's median is often a few ms (its
 * one long task just over 50 ms, or under), so the ratio alone says little: the verdict keeps the budget as it is
 * and the note shows the absolute figures and how many rounds were within on their own.
 */
export function blockingVerdict(pageMs: number[], bareMs: number[], budget = BLOCKING_BUDGET): BlockingVerdict {
  const rounds = Math.min(pageMs.length, bareMs.length);
  const medianMs = median(pageMs);
  const bareMedianMs = median(bareMs);
  const limitMs = budget.ratioOfBare * bareMedianMs;
  let roundsWithin = 0;
  for (let round = 0; round < rounds; round++) if (pageMs[round]! <= budget.ratioOfBare * bareMs[round]!) roundsWithin++;
  return {
    medianMs,
    bareMedianMs,
    limitMs,
    ratio: bareMedianMs > 0 ? medianMs / bareMedianMs : null,
    within: rounds >= budget.minRounds ? medianMs <= limitMs : null,
    roundsWithin,
    rounds,
  };
}

/** "median 95 ms, bare 14 ms: 6.79× (limit 28 ms); 1 of 5 rounds within; OVER". */
export function describeVerdict(verdict: BlockingVerdict, budget = BLOCKING_BUDGET): string {
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  const ratio = verdict.ratio === null ? "bare 0 ms, no ratio" : `${verdict.ratio.toFixed(2)}×`;
  const outcome =
    verdict.within === null
      ? `no verdict from ${verdict.rounds} rounds (≥ ${budget.minRounds})`
      : `budget ≤ ${budget.ratioOfBare}× bare: ${verdict.within ? "within" : "OVER"}`;
  return (
    `median ${ms(verdict.medianMs)}, bare ${ms(verdict.bareMedianMs)}: ${ratio} (limit ${ms(verdict.limitMs)}); ` +
    `${verdict.roundsWithin} of ${verdict.rounds} rounds within; ${outcome}`
  );
}
