import { describe, expect, it } from "vitest";
import { findMatches, isActiveHour, planEpisodes, type Episode, type RuleSpec } from "~/api/bot/alert-evaluator";
import type { HourlyForecast } from "~/api/weather/forecast";

const T0 = Date.parse("2026-06-01T00:00:00Z") / 1000; // a Monday

function hours(values: Array<Partial<HourlyForecast>>): HourlyForecast[] {
  return values.map((value, i) => ({
    time: T0 + i * 3600,
    weatherCode: 0,
    isDay: true,
    temperature: 15,
    apparentTemperature: 15,
    precipitation: 0,
    precipitationProbability: 0,
    snowfall: 0,
    windSpeed: 10,
    windGusts: 20,
    uvIndex: 0,
    ...value,
  }));
}

const gusts: RuleSpec = {
  metric: "WIND_GUSTS",
  comparator: "AT_LEAST",
  threshold: 60,
  conditions: [],
  lookaheadHours: 24,
  activeDays: ["MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"],
  activeFrom: null,
  activeTo: null,
};
const now = new Date(T0 * 1000 + 10 * 60_000);

describe("findMatches", () => {
  it("groups consecutive crossing hours into windows with their peak", () => {
    const series = hours([{}, { windGusts: 61 }, { windGusts: 75 }, { windGusts: 64 }, {}, { windGusts: 60 }]);
    expect(findMatches(gusts, series, now, "UTC")).toEqual([
      { from: T0 + 3600, to: T0 + 4 * 3600, peakAt: T0 + 2 * 3600, peakValue: 75 },
      { from: T0 + 5 * 3600, to: T0 + 6 * 3600, peakAt: T0 + 5 * 3600, peakValue: 60 },
    ]);
  });

  it("takes the lowest value as the peak of an AT_MOST rule", () => {
    const frost: RuleSpec = { ...gusts, metric: "TEMPERATURE", comparator: "AT_MOST", threshold: 0 };
    const series = hours([{ temperature: 1 }, { temperature: -1 }, { temperature: -4 }, { temperature: 0 }, { temperature: 2 }]);
    expect(findMatches(frost, series, now, "UTC")).toEqual([{ from: T0 + 3600, to: T0 + 4 * 3600, peakAt: T0 + 2 * 3600, peakValue: -4 }]);
  });

  it("matches conditions by WMO code", () => {
    const storm: RuleSpec = { ...gusts, metric: "CONDITION", threshold: null, conditions: ["THUNDERSTORM", "THUNDERSTORM_WITH_HAIL"] };
    const series = hours([{ weatherCode: 61 }, { weatherCode: 95 }, { weatherCode: 99 }, { weatherCode: 3 }]);
    expect(findMatches(storm, series, now, "UTC")).toEqual([{ from: T0 + 3600, to: T0 + 3 * 3600, peakAt: T0 + 2 * 3600, peakValue: 99 }]);
  });

  it("looks only as far ahead as the rule says, but follows a window that started inside to its end", () => {
    const series = hours([{}, {}, {}, { windGusts: 90 }, { windGusts: 95 }, { windGusts: 70 }, {}, { windGusts: 99 }]);
    expect(findMatches({ ...gusts, lookaheadHours: 3 }, series, now, "UTC")).toEqual([]);
    expect(findMatches({ ...gusts, lookaheadHours: 4 }, series, now, "UTC")).toEqual([
      { from: T0 + 3 * 3600, to: T0 + 6 * 3600, peakAt: T0 + 4 * 3600, peakValue: 95 },
    ]);
  });

  it("honours active days and a time window in the user's zone, also across midnight", () => {
    const commute: RuleSpec = { ...gusts, activeDays: ["MON"], activeFrom: "07:00", activeTo: "09:00" };
    // 05:00 and 06:00 UTC are 07:00 and 08:00 in Berlin (summer time).
    const series = hours(Array.from({ length: 12 }, () => ({ windGusts: 80 })));
    expect(findMatches(commute, series, now, "Europe/Berlin")).toEqual([
      { from: T0 + 5 * 3600, to: T0 + 7 * 3600, peakAt: T0 + 5 * 3600, peakValue: 80 },
    ]);
    expect(findMatches({ ...commute, activeDays: ["TUE"] }, series, now, "Europe/Berlin")).toEqual([]);
    const night: RuleSpec = { ...gusts, activeFrom: "22:00", activeTo: "02:00" };
    expect(isActiveHour(night, new Date("2026-06-01T23:30:00Z"), "UTC")).toBe(true);
    expect(isActiveHour(night, new Date("2026-06-01T01:00:00Z"), "UTC")).toBe(true);
    expect(isActiveHour(night, new Date("2026-06-01T12:00:00Z"), "UTC")).toBe(false);
  });
});

/**
 * The engine's loop over one rule and place, without a database: each pass finds the windows in
 * the forecast of that moment, plans, and keeps what the engine would store.
 */
function runEngine(rule: RuleSpec, cooldownHours: number, forecastAt: (hour: number) => HourlyForecast[], passes: number[]) {
  let open: Episode[] = [];
  let lastAlertAt: number | null = null;
  const sent: Array<{ kind: "ALERT" | "ALL_CLEAR"; at: number; from: number; to: number }> = [];
  for (const hour of passes) {
    const at = new Date((T0 + hour * 3600 + 60) * 1000);
    const plan = planEpisodes(findMatches(rule, forecastAt(hour), at, "UTC"), open, { now: at, cooldownHours, lastAlertAt });
    for (const episode of plan.over)
      sent.push({ kind: "ALL_CLEAR", at: hour, from: (episode.start - T0) / 3600, to: (episode.to - T0) / 3600 });
    open = open.filter((episode) => !plan.over.includes(episode));
    for (const { episode, from, to } of plan.seen) Object.assign(episode, { from, to });
    for (const match of plan.announce) {
      sent.push({ kind: "ALERT", at: hour, from: (match.from - T0) / 3600, to: (match.to - T0) / 3600 });
      open.push({ start: match.from, from: match.from, to: match.to, alertedAt: at.getTime() / 1000 });
      lastAlertAt = at.getTime() / 1000;
    }
  }
  return sent;
}

/** Gusts of 70 km/h in the given [from, to) hour ranges, calm otherwise, 48 hours long. */
const gales = (...ranges: Array<[number, number]>) =>
  hours(Array.from({ length: 48 }, (_, i) => (ranges.some(([from, to]) => i >= from && i < to) ? { windGusts: 70 } : {})));
const everyHour = (count: number, every = 1) => Array.from({ length: count }, (_, i) => i * every);

describe("episodes", () => {
  it("announces two separate windows once each, over hourly passes, with an all-clear after each", () => {
    // Hours +2 to +3 and +7 to +8, seen from midnight: both are episodes of their own.
    const sent = runEngine(gusts, 0, () => gales([2, 4], [7, 9]), everyHour(14));
    expect(sent).toEqual([
      { kind: "ALERT", at: 0, from: 2, to: 4 },
      { kind: "ALERT", at: 0, from: 7, to: 9 },
      { kind: "ALL_CLEAR", at: 4, from: 2, to: 4 },
      { kind: "ALL_CLEAR", at: 9, from: 7, to: 9 },
    ]);
  });

  it("still sends just two alerts when passes run every few minutes and the forecast is refreshed in between", () => {
    const passes = Array.from({ length: 12 * 12 }, (_, i) => i / 12); // every 5 minutes for 12 hours
    // Refreshes alternate between two runs of the model that agree on both windows, give or take an hour.
    const sent = runEngine(gusts, 6, (hour) => (Math.floor(hour * 4) % 2 === 0 ? gales([2, 4], [7, 9]) : gales([2, 5], [8, 9])), passes);
    expect(sent.filter((message) => message.kind === "ALERT").map(({ from, to }) => [from, to])).toEqual([
      [2, 4],
      [7, 9],
    ]);
  });

  it("keeps one episode when its window moves by up to two hours or grows, and takes a new one further away", () => {
    const drifting = (hour: number) =>
      hour < 1 ? gales([5, 7]) : hour < 2 ? gales([6, 8]) : hour < 3 ? gales([4, 11]) : gales([6, 7], [8, 10]);
    expect(runEngine(gusts, 0, drifting, [0, 1, 2, 3]).map((message) => message.kind)).toEqual(["ALERT"]);
    // Three hours later and no longer overlapping: a different window, its own alert.
    const jumping = (hour: number) => (hour < 1 ? gales([5, 7]) : gales([8, 10]));
    const sent = runEngine(gusts, 0, jumping, [0, 1]);
    expect(sent.filter((message) => message.kind === "ALERT").map(({ from }) => from)).toEqual([5, 8]);
  });

  it("waits for the cooldown before alerting again, then announces a window still ahead", () => {
    // Looking 4 hours ahead with a cooldown of 6: the window at +3 is announced at 0; the one at +5
    // comes into view at 2 but waits, and is over before the cooldown ends; the one at +8 comes into
    // view at 5 and is announced at 6. Windows first seen in the same pass go out together.
    const sent = runEngine({ ...gusts, lookaheadHours: 4 }, 6, () => gales([3, 4], [5, 6], [8, 9]), everyHour(10));
    expect(sent.filter((message) => message.kind === "ALERT")).toEqual([
      { kind: "ALERT", at: 0, from: 3, to: 4 },
      { kind: "ALERT", at: 6, from: 8, to: 9 },
    ]);
  });

  it("does not call all clear when a window only flickers out of one refresh, but does once it stays gone past the cooldown", () => {
    const flicker = (hour: number) => (hour === 1 ? gales() : hour < 4 ? gales([20, 22]) : gales());
    const sent = runEngine(gusts, 3, flicker, everyHour(8));
    expect(sent).toEqual([
      { kind: "ALERT", at: 0, from: 20, to: 22 },
      { kind: "ALL_CLEAR", at: 4, from: 20, to: 22 },
    ]);
  });
});
