import { describe, expect, it } from "vitest";
import { parseForecast } from "~/api/weather/open-meteo.server";
import { fakeForecast } from "../fakes/open-meteo";

type Raw = Parameters<typeof parseForecast>[0];
const raw = () => fakeForecast(47.38, 8.54, 8, new Date("2026-11-24T10:20:00Z"), undefined, 24) as unknown as Raw;

describe("parseForecast: more of the sky", () => {
  it("reads humidity, dew point, pressure, wind direction and visibility now, and each day's daylight", () => {
    const forecast = parseForecast(raw());
    expect(forecast.current).toMatchObject({
      humidity: expect.any(Number),
      dewPoint: expect.any(Number),
      pressure: expect.any(Number),
      windDirection: expect.any(Number),
      visibility: expect.any(Number),
    });
    expect(forecast.daily[0]!.daylightDuration).toBe(10 * 3600);
  });

  it("reads the quarter hours of precipitation (minutely_15) from the one now running", () => {
    const { minutely15 } = parseForecast(raw());
    expect(minutely15).toHaveLength(24);
    expect(minutely15![0]).toEqual({ time: Date.parse("2026-11-24T10:15:00Z") / 1000, precipitation: expect.any(Number) });
    expect(minutely15![1]!.time - minutely15![0]!.time).toBe(900);
  });

  it("leaves out what the provider does not give (null), rather than inventing a zero", () => {
    const answer = raw();
    for (const name of ["relative_humidity_2m", "dew_point_2m", "pressure_msl", "wind_direction_10m"]) delete answer.current[name];
    (answer.current as Record<string, unknown>).visibility = null;
    delete answer.daily.daylight_duration;
    delete answer.minutely_15;
    const forecast = parseForecast(answer);
    expect(forecast.minutely15).toEqual([]);
    expect(forecast.current).toMatchObject({ humidity: null, dewPoint: null, pressure: null, windDirection: null, visibility: null });
    expect(forecast.daily[0]!.daylightDuration).toBeNull();
  });
});
