import { describe, expect, it } from "vitest";
import { planEpisodes, type Episode, type RuleSpec } from "~/api/bot/alert-evaluator";
import { findShowers, showers, SHOWER_SHIFT_SECONDS } from "~/api/bot/rain-soon";

const T0 = Date.parse("2026-06-01T10:00:00Z") / 1000; // a Monday
const Q = 900;

/** Quarter hours from T0 with these millimetres. */
const quarters = (mm: number[]) => mm.map((precipitation, i) => ({ time: T0 + i * Q, precipitation }));

const within30: RuleSpec = {
  metric: "RAIN_SOON",
  comparator: "AT_LEAST",
  threshold: 30,
  conditions: [],
  lookaheadHours: 24,
  activeDays: ["MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"],
  activeFrom: null,
  activeTo: null,
};
const at = (seconds: number) => new Date(seconds * 1000);

describe("showers", () => {
  it("are runs of wet quarter hours (from 0.1 mm), each with its wettest quarter", () => {
    expect(showers(quarters([0, 0.2, 0.9, 0.3, 0.05, 0, 0.4]))).toEqual([
      { from: T0 + Q, to: T0 + 4 * Q, peakAt: T0 + 2 * Q, peakValue: 0.9 },
      { from: T0 + 6 * Q, to: T0 + 7 * Q, peakAt: T0 + 6 * Q, peakValue: 0.4 },
    ]);
  });

  it("do not bridge a gap in the quarter hours", () => {
    const gappy = [
      { time: T0, precipitation: 0.5 },
      { time: T0 + 2 * Q, precipitation: 0.5 },
    ];
    expect(showers(gappy)).toHaveLength(2);
  });
});

describe("findShowers", () => {
  const series = quarters([0, 0, 0, 0.4, 0.6, 0, 0, 0, 0, 0, 0.3, 0.3]);
  const first = { from: T0 + 3 * Q, to: T0 + 5 * Q, peakAt: T0 + 4 * Q, peakValue: 0.6 };

  it("finds a shower starting within the rule's minutes, and not one starting later", () => {
    expect(findShowers(within30, series, at(T0 + 20 * 60), "UTC")).toEqual([first]); // starts 10:45, now 10:20
    expect(findShowers(within30, series, at(T0 + 10 * 60), "UTC")).toEqual([]); // 35 min ahead
    expect(findShowers({ ...within30, threshold: 120 }, series, at(T0 + 35 * 60), "UTC")).toHaveLength(2); // 10:45 and 12:30, now 10:35
  });

  it("counts a shower starting in the quarter hour now running, but not rain that has been falling", () => {
    expect(findShowers(within30, series, at(T0 + 3 * Q + 300), "UTC")).toEqual([first]);
    expect(findShowers(within30, series, at(T0 + 4 * Q + 300), "UTC")).toEqual([]);
    // Wet where the nowcast begins: it may have started long before, so it is not "starting".
    expect(findShowers(within30, quarters([0.5, 0.5, 0]), at(T0), "UTC")).toEqual([]);
  });

  it("follows a shower under way that an episode already told, until it ends", () => {
    const told = [{ from: T0 + 3 * Q, to: T0 + 4 * Q }];
    expect(findShowers(within30, series, at(T0 + 4 * Q + 300), "UTC", told)).toEqual([first]);
    expect(findShowers(within30, series, at(T0 + 5 * Q + 1), "UTC", told)).toEqual([]);
  });

  it("keeps to the rule's active hours, in the user's zone", () => {
    // 10:45 UTC is 12:45 in Berlin: outside 06:00–12:00 there, inside it in UTC.
    const mornings = { ...within30, activeFrom: "06:00", activeTo: "12:00" };
    expect(findShowers(mornings, series, at(T0 + 20 * 60), "UTC")).toHaveLength(1);
    expect(findShowers(mornings, series, at(T0 + 20 * 60), "Europe/Berlin")).toEqual([]);
  });
});

describe("a shower is one episode", () => {
  const open = (from: number, to: number): Episode => ({ start: from, from, to, alertedAt: T0 });

  it("when a refresh moves it by a quarter hour, but two showers an hour apart are two", () => {
    const moved = { from: T0 + 4 * Q, to: T0 + 5 * Q, peakAt: T0 + 4 * Q, peakValue: 0.5 };
    const episode = open(T0 + 3 * Q, T0 + 4 * Q);
    const options = { now: at(T0), cooldownHours: 0, lastAlertAt: T0, shiftSeconds: SHOWER_SHIFT_SECONDS };
    expect(planEpisodes([moved], [episode], options).announce).toEqual([]);
    const later = { from: T0 + 8 * Q, to: T0 + 9 * Q, peakAt: T0 + 8 * Q, peakValue: 0.5 };
    expect(planEpisodes([later], [episode], options).announce).toEqual([later]);
    // Hourly rules forgive two hours: the same shower an hour later would be the episode moved.
    expect(planEpisodes([later], [episode], { ...options, shiftSeconds: undefined }).announce).toEqual([]);
  });
});
