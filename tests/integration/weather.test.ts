import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { apiLog } from "~/api/log.server";
import { STORE_DELAY_MS } from "~/api/weather/forecast-service.server";
import { startFakeOpenMeteo } from "../fakes/open-meteo";
import { codes, testApis } from "../support/api-server";
import {
  TestPlacesWeatherDocument as PLACES_WEATHER,
  TestWeatherAddPlaceDocument,
  TestWeatherAtDocument as WEATHER_AT,
  TestWeatherTooManyHoursDocument,
} from "../support/documents.generated";

const api = testApis();

// Typed documents (weather.graphql): the answers below are read with their generated result types.

/** A clock the test moves by hand. */
function manualClock(start = new Date("2026-11-22T10:15:00Z")) {
  let now = start.getTime();
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

describe("weather", () => {
  it("gives a signed-out visitor a forecast with stable ids", async () => {
    const t = await api();
    const result = await t.gql(WEATHER_AT, { lat: 52.52, lon: 13.41 });
    expect(result.errors).toBeUndefined();
    const weather = result.data!.weatherAt;
    expect(weather).toMatchObject({ id: "at:52.52,13.41", stale: false, timeZone: "Europe/Berlin" });
    expect(weather.hourly).toHaveLength(3);
    expect(weather.hourly[0]!.id).toBe(`at:52.52,13.41:${weather.hourly[0]!.time}`);
    // Each hour's wind direction (the hourly strip's arrows), as the provider gives it in degrees.
    for (const hour of weather.hourly) expect(hour.windDirection).toEqual(expect.any(Number));
    expect(weather.daily).toHaveLength(2);
  });

  it("fetches a user's 10 places in one upstream call, then serves them from the cache", async () => {
    const clock = manualClock();
    const t = await api({ now: clock.now });
    const token = await t.signUp();
    for (let i = 0; i < 10; i++) {
      await t.gql(TestWeatherAddPlaceDocument, { lat: 40 + i }, { token });
    }
    // Adding a coordinate fetched its forecast (for the time zone); let those go stale.
    clock.advance(16 * 60_000);
    t.fake.reset();
    const first = await t.gql(PLACES_WEATHER, {}, { token });
    expect(first.errors).toBeUndefined();
    expect(first.data!.places).toHaveLength(10);
    expect(t.fake.calls.forecast).toBe(1);
    expect(t.fake.forecastRequests[0]).toHaveLength(10);
    await t.gql(PLACES_WEATHER, {}, { token });
    expect(t.fake.calls.forecast).toBe(1);
  });

  it("coalesces concurrent requests for the same coordinate into one upstream call", async () => {
    const t = await api();
    const results = await Promise.all(Array.from({ length: 8 }, () => t.gql(WEATHER_AT, { lat: 48.85, lon: 2.35 })));
    expect(results.every((result) => result.data?.weatherAt.timeZone === "Europe/Paris")).toBe(true);
    expect(t.fake.calls.forecast).toBe(1);
  });

  it("retries 429 and 5xx answers", async () => {
    const t = await api();
    t.fake.failNext(429);
    t.fake.failNext(503);
    const result = await t.gql(WEATHER_AT, { lat: 40.71, lon: -74.01 });
    expect(result.data!.weatherAt.stale).toBe(false);
    expect(t.fake.calls.forecast).toBe(3);
  });

  it("serves the last known forecast, marked stale with its age, when upstream fails", async () => {
    const clock = manualClock();
    const t = await api({ now: clock.now });
    const fresh = await t.gql(WEATHER_AT, { lat: 51.51, lon: -0.13 });
    expect(fresh.data!.weatherAt).toMatchObject({ stale: false, fetchedAt: "2026-11-22T10:15:00.000Z" });

    clock.advance(20 * 60_000); // past the 15-minute freshness
    t.fake.failNext(500, 3);
    const stale = await t.gql(WEATHER_AT, { lat: 51.51, lon: -0.13 });
    expect(stale.errors).toBeUndefined();
    expect(stale.data!.weatherAt).toMatchObject({ stale: true, fetchedAt: "2026-11-22T10:15:00.000Z" });

    const recovered = await t.gql(WEATHER_AT, { lat: 51.51, lon: -0.13 });
    expect(recovered.data!.weatherAt).toMatchObject({ stale: false, fetchedAt: "2026-11-22T10:35:00.000Z" });
  });

  it("says clearly when there is no forecast at all, and keeps serving", async () => {
    const t = await api();
    t.fake.failNext("garbage");
    const garbage = await t.gql(WEATHER_AT, { lat: -33.87, lon: 151.21 });
    expect(codes(garbage)).toEqual(["WEATHER_UNAVAILABLE"]);
    expect(garbage.errors![0]!.message).toMatch(/cannot be reached/);
    t.fake.failNext(500, 3);
    expect(codes(await t.gql(WEATHER_AT, { lat: 64.14, lon: -21.9 }))).toEqual(["WEATHER_UNAVAILABLE"]);
    expect((await t.gql(WEATHER_AT, { lat: 64.14, lon: -21.9 })).data!.weatherAt.stale).toBe(false);
  });

  it("tells the client the provider is out, and only the server's log why, with the request's id", async () => {
    const t = await api();
    const warn = vi.spyOn(apiLog, "warn").mockImplementation(() => {});
    t.fake.failNext(500, 3);
    const answer = await t.gql(WEATHER_AT, { lat: 35.68, lon: 139.69 });
    // The code and a message for people: nothing of the provider's answer or of the server's network.
    expect(answer.errors!.map((error) => error.extensions)).toEqual([{ code: "WEATHER_UNAVAILABLE" }]);
    expect(JSON.stringify(answer)).not.toMatch(/Open-Meteo|answered|fetch failed|cause/);
    const logged = warn.mock.calls.filter(([, message]) => message === "[graphql] answered with an error:");
    expect(logged).toEqual([
      [
        { reqId: expect.stringMatching(/.{8}/), op: "TestWeatherAt", code: "WEATHER_UNAVAILABLE", cause: expect.stringMatching(/500/) },
        expect.any(String),
      ],
    ]);
  });

  it("keeps forecasts across a restart: a new process on the same data needs no upstream call", async () => {
    const first = await api();
    const answer = await first.gql(WEATHER_AT, { lat: 47.37, lon: 8.55 });
    expect(first.fake.calls.forecast).toBe(1);
    // Written behind the answer, within STORE_DELAY_MS.
    const stored = () => first.api.services.db.selectFrom("forecast_cache").select("coordinate_key").execute();
    expect(await stored()).toEqual([]);
    await vi.waitFor(async () => expect(await stored()).toHaveLength(1), { timeout: STORE_DELAY_MS + 1000, interval: 50 });
    const second = await api({ dataDir: first.dataDir, databaseUrl: first.databaseUrl, fake: first.fake });
    const again = await second.gql(WEATHER_AT, { lat: 47.37, lon: 8.55 });
    expect(again.data!.weatherAt.timeZone).toBe("Europe/Zurich");
    // The same forecast, as the database keeps it (stored-forecast.server.ts) read back.
    expect(again.data).toEqual(answer.data);
    expect(first.fake.calls.forecast).toBe(1);
  });

  it("writes the forecasts not yet kept when it closes", async () => {
    const fake = await startFakeOpenMeteo();
    const dataDir = await mkdtemp(path.join(tmpdir(), "weatherbot-restart-"));
    try {
      const first = await api({ dataDir, fake });
      await first.gql(WEATHER_AT, { lat: 47.37, lon: 8.55 });
      await first.close();
      const second = await api({ dataDir, databaseUrl: first.databaseUrl, fake });
      expect((await second.gql(WEATHER_AT, { lat: 47.37, lon: 8.55 })).data!.weatherAt.stale).toBe(false);
      expect(fake.calls.forecast).toBe(1);
      await second.close();
    } finally {
      await fake.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("validates coordinates and ranges", async () => {
    const t = await api();
    expect(codes(await t.gql(WEATHER_AT, { lat: 100, lon: 0 }))).toEqual(["BAD_USER_INPUT"]);
    const hours = await t.gql(TestWeatherTooManyHoursDocument);
    expect(codes(hours)).toEqual(["BAD_USER_INPUT"]);
  });
});
