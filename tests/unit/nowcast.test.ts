import { describe, expect, it } from "vitest";
import { summarizeNowcast } from "~/shared/nowcast";

const NOW = Date.parse("2026-11-24T10:07:00Z");
/** Quarter hours from 10:00 with these precipitations (mm). */
const steps = (...mm: number[]) =>
  mm.map((precipitation, i) => ({ time: new Date(Date.parse("2026-11-24T10:00:00Z") + i * 900_000).toISOString(), precipitation }));

describe("summarizeNowcast", () => {
  it("says when rain starts, in about so many minutes (fives, at least 5)", () => {
    expect(summarizeNowcast(steps(0, 0, 0.4, 0.6, 0, 0, 0, 0), NOW)).toEqual({ kind: "starting", minutes: 25 });
    expect(summarizeNowcast(steps(0, 0.2, 0.2, 0, 0, 0, 0, 0), NOW)).toEqual({ kind: "starting", minutes: 10 });
  });

  it("says when rain falling now stops", () => {
    expect(summarizeNowcast(steps(0.5, 0.5, 0.5, 0.5, 0.05, 0, 0, 0), NOW)).toEqual({ kind: "stopping", minutes: 55 });
  });

  it("says dry or rain throughout when nothing changes, and a trace under 0.1 mm is no rain", () => {
    expect(summarizeNowcast(steps(0, 0.05, 0, 0, 0, 0, 0.09, 0), NOW)).toEqual({ kind: "dry" });
    expect(summarizeNowcast(steps(0.3, 0.3, 0.2, 0.1, 0.4, 0.3, 0.2, 0.2), NOW)).toEqual({ kind: "continuing" });
  });

  it("knows nothing without steps (a forecast cached from before the nowcast)", () => {
    expect(summarizeNowcast([], NOW)).toEqual({ kind: "unknown" });
  });
});
