import { describe, expect, it } from "vitest";
import { parseForecast } from "~/api/weather/open-meteo.server";
import { decodeForecast, encodeForecast } from "~/api/weather/stored-forecast.server";
import { fakeForecast } from "../fakes/open-meteo";

type Raw = Parameters<typeof parseForecast>[0];
const forecast = () => parseForecast(fakeForecast(47.38, 8.54, 8, new Date("2026-11-24T10:20:00Z"), undefined, 24) as unknown as Raw);

describe("a forecast as the cache stores it", () => {
  it("reads back as the same forecast, hours, days and quarter hours", () => {
    const original = forecast();
    expect(original.hourly).toHaveLength(8 * 24);
    expect(decodeForecast(encodeForecast(original))).toEqual(original);
  });

  it("keeps a forecast without quarter hours without them", () => {
    const { minutely15: _quarters, ...original } = forecast();
    const decoded = decodeForecast(encodeForecast(original));
    expect(decoded).toEqual(original);
    expect("minutely15" in decoded).toBe(false);
  });

  it("is less than half the JSON of the forecast's objects", () => {
    const original = forecast();
    expect(encodeForecast(original).length).toBeLessThan(JSON.stringify(original).length / 2);
  });

  it("still reads rows stored before, as plain JSON", () => {
    const original = forecast();
    expect(decodeForecast(JSON.stringify(original))).toEqual(original);
  });
});
