import { describe, expect, it } from "vitest";
import { blockingVerdict, describeVerdict } from "../../scripts/bench/blocking-verdict";

describe("issue 35's Total Blocking Time verdict", () => {
  it("compares medians at twice the bare page's, and shows the absolute figures beside the ratio", () => {
    const verdict = blockingVerdict([95, 44, 76, 141, 118], [35, 0, 3, 14, 40]);
    expect(verdict).toMatchObject({ medianMs: 95, bareMedianMs: 14, limitMs: 28, within: false, roundsWithin: 0, rounds: 5 });
    expect(describeVerdict(verdict)).toBe("median 95 ms, bare 14 ms: 6.79× (limit 28 ms); 0 of 5 rounds within; budget ≤ 2× bare: OVER");
  });

  it("is within when the median is, even where single rounds were not (one slow round does not decide)", () => {
    const verdict = blockingVerdict([20, 500, 30, 25, 40], [20, 10, 25, 30, 15]);
    expect(verdict).toMatchObject({ medianMs: 30, bareMedianMs: 20, within: true, roundsWithin: 3 });
  });

  it("keeps the budget where the bare page blocked 0 ms: the limit is then 0 ms, and no ratio is printed", () => {
    const verdict = blockingVerdict([0, 12, 0, 0, 3], [0, 0, 50, 0, 0]);
    expect(verdict).toMatchObject({ medianMs: 0, bareMedianMs: 0, ratio: null, limitMs: 0, within: true });
    expect(describeVerdict(blockingVerdict([5, 12, 8, 0, 3], [0, 0, 50, 0, 0]))).toContain("bare 0 ms, no ratio (limit 0 ms)");
    expect(blockingVerdict([5, 12, 8, 0, 3], [0, 0, 50, 0, 0]).within).toBe(false);
  });

  it("gives no verdict from fewer than five rounds", () => {
    const verdict = blockingVerdict([10, 12, 11], [40, 50, 45]);
    expect(verdict.within).toBeNull();
    expect(describeVerdict(verdict)).toContain("no verdict from 3 rounds (≥ 5)");
  });
});
