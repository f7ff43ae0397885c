import { describe, expect, it } from "vitest";
import { withAirQuality } from "~/api/bot/air-quality-hours";
import { findMatches, type RuleSpec } from "~/api/bot/alert-evaluator";
import { parseAirQuality, pollenCounts, type RawAirQuality } from "~/api/weather/air-quality";
import { parseForecast } from "~/api/weather/open-meteo.server";
import { aqiCategory, aqiOn, airQualityScale } from "~/shared/air-quality";
import { alertRuleInput } from "~/shared/inputs/alert-rule";
import { formatMetric } from "~/shared/message-format";
import { fakeAirQuality, fakeForecast } from "../fakes/open-meteo";

const NOW = new Date("2026-05-12T10:20:00Z");
const CURRENT = [
  "european_aqi",
  "us_aqi",
  "pm2_5",
  "pm10",
  "alder_pollen",
  "birch_pollen",
  "grass_pollen",
  "mugwort_pollen",
  "olive_pollen",
  "ragweed_pollen",
];
const raw = (latitude: number, longitude: number) =>
  fakeAirQuality(latitude, longitude, {
    days: 5,
    now: NOW,
    current: CURRENT,
    hourly: ["european_aqi", "us_aqi"],
  }) as unknown as RawAirQuality;

describe("parseAirQuality", () => {
  it("reads Open-Meteo's current values and the indices hour by hour, with the pollen it gives in Europe", () => {
    const answer = raw(52.52, 13.41);
    expect((answer as unknown as { current_units: Record<string, string> }).current_units).toMatchObject({
      european_aqi: "EAQI",
      us_aqi: "USAQI",
      pm2_5: "μg/m³",
      grass_pollen: "grains/m³",
    });
    const air = parseAirQuality(answer)!;
    expect(air.current).toMatchObject({
      time: Date.parse("2026-05-12T10:00:00Z") / 1000,
      europeanAqi: expect.any(Number),
      usAqi: expect.any(Number),
      pm2_5: expect.any(Number),
      pm10: expect.any(Number),
    });
    expect(Object.keys(air.current.pollen).sort()).toEqual(["ALDER", "BIRCH", "GRASS", "MUGWORT", "OLIVE", "RAGWEED"]);
    expect(air.hourly).toHaveLength(5 * 24);
    expect(air.hourly[1]!.time - air.hourly[0]!.time).toBe(3600);
  });

  it("leaves out pollen the provider has none of (null outside Europe) rather than inventing a zero, and null indices stay null", () => {
    const answer = raw(40.71, -74.01);
    answer.current!.european_aqi = null;
    answer.hourly!.us_aqi![3] = null;
    const air = parseAirQuality(answer)!;
    expect(air.current.pollen).toEqual({});
    expect(air.current.europeanAqi).toBeNull();
    expect(air.hourly[3]!.usAqi).toBeNull();
  });

  it("finds nothing to keep in an answer without current values or hours", () => {
    expect(parseAirQuality({})).toBeNull();
    expect(parseAirQuality({ current: { time: 1 } })).toBeNull();
  });

  it("lists the pollen worth a word, most first", () => {
    expect(
      pollenCounts({ time: 0, europeanAqi: 1, usAqi: 1, pm2_5: 1, pm10: 1, pollen: { ALDER: 0, BIRCH: 4.5, GRASS: 31, OLIVE: 0.4 } }),
    ).toEqual([
      { kind: "GRASS", grains: 31 },
      { kind: "BIRCH", grains: 4.5 },
    ]);
  });
});

describe("the reader's scale and its bands", () => {
  it("is the US index for readers of °F (the US's conventions) and the European index for everyone else", () => {
    expect(airQualityScale({ temperatureUnit: "FAHRENHEIT" })).toBe("US");
    expect(airQualityScale({ temperatureUnit: "CELSIUS" })).toBe("EUROPEAN");
    expect(aqiOn("US", { europeanAqi: 30, usAqi: 70 })).toBe(70);
    expect(aqiOn("EUROPEAN", { europeanAqi: 30, usAqi: 70 })).toBe(30);
  });

  it("names the European Environment Agency's bands", () => {
    const bands = [0, 20, 21, 40, 41, 60, 61, 80, 81, 100, 101].map((value) => aqiCategory("EUROPEAN", value));
    expect(bands).toEqual([
      "GOOD",
      "GOOD",
      "FAIR",
      "FAIR",
      "MODERATE",
      "MODERATE",
      "POOR",
      "POOR",
      "VERY_POOR",
      "VERY_POOR",
      "EXTREMELY_POOR",
    ]);
  });

  it("names the US EPA's bands", () => {
    const bands = [0, 50, 51, 100, 101, 150, 151, 200, 201, 300, 301, 500].map((value) => aqiCategory("US", value));
    expect(bands).toEqual([
      "GOOD",
      "GOOD",
      "MODERATE",
      "MODERATE",
      "UNHEALTHY_FOR_SENSITIVE_GROUPS",
      "UNHEALTHY_FOR_SENSITIVE_GROUPS",
      "UNHEALTHY",
      "UNHEALTHY",
      "VERY_UNHEALTHY",
      "VERY_UNHEALTHY",
      "HAZARDOUS",
      "HAZARDOUS",
    ]);
  });
});

describe("the AQI metric", () => {
  const rule: RuleSpec = {
    metric: "AQI",
    comparator: "AT_LEAST",
    threshold: 100,
    conditions: [],
    lookaheadHours: 12,
    activeDays: ["MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"],
    activeFrom: null,
    activeTo: null,
  };
  const forecast = parseForecast(fakeForecast(40.71, -74.01, 8, NOW) as unknown as Parameters<typeof parseForecast>[0]);

  it("crosses on the reader's scale, and never in an hour without an index", () => {
    const answer = raw(40.71, -74.01);
    const hours = answer.hourly!.time;
    const nowHour = Math.floor(NOW.getTime() / 3_600_000) * 3600;
    const at = (offset: number) => hours.indexOf(nowHour + offset * 3600);
    for (let i = 0; i < hours.length; i++) answer.hourly!.us_aqi![i] = 40;
    answer.hourly!.us_aqi![at(2)] = 120;
    answer.hourly!.us_aqi![at(3)] = null;
    answer.hourly!.us_aqi![at(4)] = 130;
    const air = parseAirQuality(answer)!;
    const matches = findMatches(rule, withAirQuality(forecast.hourly, air, "US"), NOW, "UTC");
    expect(matches.map((match) => [(match.from - nowHour) / 3600, (match.to - nowHour) / 3600, match.peakValue])).toEqual([
      [2, 3, 120],
      [4, 5, 130],
    ]);
    // The European index of the same hours stays under 100 in the fake: nothing crosses on that scale.
    expect(findMatches(rule, withAirQuality(forecast.hourly, air, "EUROPEAN"), NOW, "UTC")).toEqual([]);
  });

  it("takes thresholds of 0 to 500 points, and formats a peak as a whole number", () => {
    const input = (threshold: number) => alertRuleInput.safeParse({ name: "Smoke", metric: "AQI", threshold }).success;
    expect([input(0), input(150), input(500), input(501), input(-1)]).toEqual([true, true, true, false, false]);
    expect(formatMetric("AQI", 151.4, { locale: "de-DE", temperatureUnit: "CELSIUS", windSpeedUnit: "KMH", precipitationUnit: "MM" })).toBe(
      "151",
    );
  });
});
