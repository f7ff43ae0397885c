import { describe, expect, it } from "vitest";
import { findMatches, type RuleSpec } from "~/api/bot/alert-evaluator";
import { nextWake, type WakeInputs } from "~/api/bot/alert-wake";
import { findShowers } from "~/api/bot/rain-soon";
import type { Forecast, HourlyForecast } from "~/api/weather/forecast";

const H = 3600;
const T0 = Date.parse("2026-06-01T00:00:00Z") / 1000;
const ALL_DAYS = ["MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"] as const;

const gusts: RuleSpec = {
  metric: "WIND_GUSTS",
  comparator: "AT_LEAST",
  threshold: 60,
  conditions: [],
  lookaheadHours: 6,
  activeDays: ALL_DAYS,
  activeFrom: null,
  activeTo: null,
};

/** 48 hours from T0, gusts of 75 at the given hours, 20 elsewhere. */
function hours(gusty: number[]): HourlyForecast[] {
  return Array.from({ length: 48 }, (_, hour) => ({ time: T0 + hour * H, windGusts: gusty.includes(hour) ? 75 : 20 }) as HourlyForecast);
}

function inputs(spec: RuleSpec, forecast: Partial<Forecast>, extra: Partial<WakeInputs> = {}): WakeInputs {
  const hourly = forecast.hourly ?? [];
  return {
    spec,
    watched: { forecast: { hourly, ...forecast } as Forecast, hours: hourly },
    open: [],
    lastAlertAt: null,
    cooldownHours: 3,
    timeZone: "UTC",
    ...extra,
  };
}

/** Each instant from `from` to `to` (seconds, every `step`) at which the evaluator's answer differs from the one before. */
function changesOf(answer: (at: number) => unknown, from: number, to: number, step: number): number[] {
  const changes: number[] = [];
  let last = JSON.stringify(answer(from));
  for (let at = from + step; at <= to; at += step) {
    const now = JSON.stringify(answer(at));
    if (now !== last) changes.push(at);
    last = now;
  }
  return changes;
}

describe("a rule's next wake-up time", () => {
  it("is every instant at which the look-ahead's matches change, and no other, for hourly rules", () => {
    const hourly = hours([20, 21, 30]);
    const changes = changesOf((at) => findMatches(gusts, hourly, new Date(at * 1000), "UTC"), T0, T0 + 40 * H, 60);
    // Following nextWake from the start lands on each change in turn.
    const wakes: number[] = [];
    for (let at: number | null = T0; at !== null && at <= T0 + 40 * H; at = nextWake(inputs(gusts, { hourly }), at)) {
      if (at !== T0) wakes.push(at);
    }
    expect(changes.every((change) => wakes.includes(change))).toBe(true);
    expect(wakes.slice(0, 4)).toEqual([T0 + 15 * H, T0 + 16 * H, T0 + 21 * H, T0 + 22 * H]);
  });

  it("is none for a rule the forecast never crosses, with no episode", () => {
    expect(nextWake(inputs(gusts, { hourly: hours([]) }), T0)).toBeNull();
  });

  it("comes when an episode's window ends and when a cooldown runs out", () => {
    const episode = { start: T0 + 2 * H, from: T0 + 2 * H, to: T0 + 4 * H, alertedAt: T0 };
    const wake = (at: number) => nextWake(inputs(gusts, { hourly: hours([]) }, { open: [episode], lastAlertAt: T0 }), at);
    expect(wake(T0 + 60)).toBe(T0 + 3 * H); // the cooldown since its alert
    expect(wake(T0 + 3 * H)).toBe(T0 + 4 * H); // its window's end
    expect(wake(T0 + 4 * H)).toBeNull();
  });

  it("follows the showers of the nowcast for RAIN_SOON: entering the minutes watched, leaving the running quarter, ending", () => {
    const rainSoon: RuleSpec = { ...gusts, metric: "RAIN_SOON", threshold: 60, comparator: "AT_LEAST" };
    const minutely15 = Array.from({ length: 24 }, (_, quarter) => ({
      time: T0 + quarter * 900,
      precipitation: quarter >= 8 && quarter < 10 ? 0.5 : 0,
    }));
    const changes = changesOf((at) => findShowers(rainSoon, minutely15, new Date(at * 1000), "UTC"), T0, T0 + 4 * H, 60);
    const wakes: number[] = [];
    for (let at: number | null = T0; at !== null; at = nextWake(inputs(rainSoon, { hourly: [], minutely15 }), at)) {
      if (at !== T0) wakes.push(at);
    }
    expect(changes.every((change) => wakes.includes(change))).toBe(true);
    expect(wakes).toEqual([T0 + H, T0 + 2 * H + 900, T0 + 2.5 * H]);
  });

  it("is at once again when nothing could be read", () => {
    expect(nextWake({ ...inputs(gusts, {}), watched: null }, T0)).toBe(T0);
  });
});
