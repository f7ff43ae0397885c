import { describe, expect, it } from "vitest";
import { findMatches, isActiveHour, type RuleSpec } from "~/api/bot/alert-evaluator";
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
