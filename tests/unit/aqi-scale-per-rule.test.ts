import { readFileSync } from "node:fs";
import path from "node:path";
import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { findMatches } from "~/api/bot/alert-evaluator";
import { hoursFor, ruleSpec, watchKey } from "~/api/bot/alert-watch.server";
import type { AlertRuleTable } from "~/api/db/tables";
import { parseAirQuality, type RawAirQuality } from "~/api/weather/air-quality";
import { parseForecast } from "~/api/weather/open-meteo.server";
import { thresholdSummary } from "~/lib/alert-rule-summary";
import type { DisplaySettings } from "~/lib/display-settings";
import { fakeAirQuality, fakeForecast } from "../fakes/open-meteo";

const NOW = new Date("2026-05-12T10:20:00Z");
const NOW_HOUR = Math.floor(NOW.getTime() / 3_600_000) * 3600;

/** An AQI rule of "at least 100" as stored, on `scale` (null: a row 0019 missed): the columns the engine reads of it. */
const row = (scale: string | null) =>
  ({
    metric: "AQI",
    comparator: "AT_LEAST",
    threshold: 100,
    aqi_scale: scale,
    conditions: null,
    lookahead_hours: 12,
    active_days: "MON,TUE,WED,THU,FRI,SAT,SUN",
    active_from: null,
    active_to: null,
  }) as AlertRuleTable;

/** Two hours ahead: US 120, European 60; clean air (US 40, European 20) the rest of the time. */
function smokyHour() {
  const answer = fakeAirQuality(40.71, -74.01, {
    days: 5,
    now: NOW,
    current: ["european_aqi", "us_aqi"],
    hourly: ["european_aqi", "us_aqi"],
  }) as unknown as RawAirQuality;
  answer.hourly!.time.forEach((time, index) => {
    const smoky = time === NOW_HOUR + 2 * 3600;
    answer.hourly!.us_aqi![index] = smoky ? 120 : 40;
    answer.hourly!.european_aqi![index] = smoky ? 60 : 20;
  });
  return parseAirQuality(answer)!;
}

describe("an AQI rule's own scale (decision 031)", () => {
  const forecast = parseForecast(fakeForecast(40.71, -74.01, 8, NOW) as unknown as Parameters<typeof parseForecast>[0]);
  const air = smokyHour();
  const peaks = (scale: string | null) => {
    const spec = ruleSpec(row(scale));
    return findMatches(spec, hoursFor(spec, forecast.hourly, air) ?? [], NOW, "UTC").map((match) => match.peakValue);
  };

  it("is the scale its threshold is read on: 100 is crossed by US 120, not by the same hour's European 60", () => {
    expect(peaks("US")).toEqual([120]);
    expect(peaks("EUROPEAN")).toEqual([]);
  });

  it("reads no index for a rule without one, rather than guessing a scale", () => {
    expect(hoursFor(ruleSpec(row(null)), forecast.hourly, air)).toBeNull();
  });

  it("is part of what its episodes are keyed by; other metrics have none", () => {
    expect(watchKey(row("US"))).toMatch(/\|US$/);
    expect(watchKey(row("EUROPEAN"))).toMatch(/\|EUROPEAN$/);
    expect(ruleSpec({ ...row("US"), metric: "WIND_GUSTS" }).aqiScale).toBeNull();
  });

  it("is named in the rule's summary, whatever scale the reader's units give now", async () => {
    const common = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../locales/en-US/common.json"), "utf8"));
    const instance = i18next.createInstance();
    await instance.init({ lng: "en-US", resources: { "en-US": { common } }, defaultNS: "common", interpolation: { escapeValue: false } });
    const celsius: DisplaySettings = {
      locale: "en-US",
      temperatureUnit: "CELSIUS",
      windSpeedUnit: "KMH",
      precipitationUnit: "MM",
      hour12: true,
      timeZone: "UTC",
    };
    const rule = { metric: "AQI", comparator: "AT_LEAST", threshold: 100 } as const;
    expect(thresholdSummary({ ...rule, aqiScale: "US" }, instance.t, celsius)).toBe("US AQI at least 100");
    // A rule not saved yet has none: the reader's of the day.
    expect(thresholdSummary({ ...rule, aqiScale: null }, instance.t, celsius)).toBe("European AQI at least 100");
  });
});
