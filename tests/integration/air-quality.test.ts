import { describe, expect, it, vi } from "vitest";
import { testApis } from "../support/api-server";
import {
  TestAirQualityAddPlaceDocument as ADD_PLACE,
  TestAirQualityAtDocument as AIR_AT,
  TestAirQualityNotAskedDocument as NOT_ASKED,
  TestAirQualityPlacesDocument as PLACES_AIR,
} from "../support/documents.generated";

const api = testApis();

/** A clock the test moves by hand. */
function manualClock(start = new Date("2026-05-12T10:15:00Z")) {
  let now = start.getTime();
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

describe("air quality", () => {
  it("is asked for upstream beside the forecast, not after it, and only when the operation wants it", async () => {
    const t = await api({ now: manualClock().now });
    const release = t.fake.holdForecasts(() => true);
    const answer = t.gql(AIR_AT, { lat: 52.52, lon: 13.41 });
    // The forecast is held back: the air's call can only have started beside it.
    await vi.waitFor(() => expect(t.fake.calls.airQuality).toBe(1), { timeout: 10_000 });
    release();
    expect((await answer).data!.weatherAt.airQuality).toMatchObject({ stale: false });
    expect(t.fake.calls.airQuality).toBe(1);

    expect((await t.gql(NOT_ASKED, { lat: 48.86, lon: 2.35 })).errors).toBeUndefined();
    expect(t.fake.calls.airQuality).toBe(1);
  });

  it("gives both indices, PM2.5 and PM10 for a place in Europe, with its pollen most first, asked for in Open-Meteo's terms", async () => {
    const clock = manualClock();
    const t = await api({ now: clock.now });
    const result = await t.gql(AIR_AT, { lat: 52.52, lon: 13.41 });
    expect(result.errors).toBeUndefined();
    const air = result.data!.weatherAt.airQuality!;
    expect(air).toMatchObject({
      id: "at:52.52,13.41:air",
      stale: false,
      fetchedAt: "2026-05-12T10:15:00.000Z",
      time: "2026-05-12T10:00:00.000Z",
      europeanAqi: expect.any(Number),
      usAqi: expect.any(Number),
      pm25: expect.any(Number),
      pm10: expect.any(Number),
    });
    expect(Number.isInteger(air.europeanAqi) && Number.isInteger(air.usAqi)).toBe(true);
    // The fake's Berlin has grass and birch pollen; alder, mugwort, olive and ragweed are at 0 (not worth a word).
    expect(air.pollen.map((count) => count.kind)).toContain("GRASS");
    expect(air.pollen.every((count) => count.grains >= 1)).toBe(true);
    const grains = air.pollen.map((count) => count.grains);
    expect(grains).toEqual([...grains].sort((a, b) => b - a));
    expect(t.fake.airQualityRequests).toEqual([[{ latitude: 52.52, longitude: 13.41 }]]);
  });

  it("has no pollen where the provider has none (outside Europe), and the indices all the same", async () => {
    const t = await api();
    const air = (await t.gql(AIR_AT, { lat: 40.71, lon: -74.01 })).data!.weatherAt.airQuality!;
    expect(air.pollen).toEqual([]);
    expect(air.usAqi).toEqual(expect.any(Number));
  });

  it("asks for a user's 10 places in one upstream call, then serves them from the cache", async () => {
    const clock = manualClock();
    const t = await api({ now: clock.now });
    const token = await t.signUp();
    for (let i = 0; i < 10; i++) await t.gql(ADD_PLACE, { lat: 40 + i }, { token });
    t.fake.reset();
    const first = await t.gql(PLACES_AIR, {}, { token });
    expect(first.errors).toBeUndefined();
    expect(first.data!.places.every((place) => typeof place.weather.airQuality?.usAqi === "number")).toBe(true);
    expect(t.fake.calls.airQuality).toBe(1);
    expect(t.fake.airQualityRequests[0]).toHaveLength(10);
    clock.advance(10 * 60_000);
    await t.gql(PLACES_AIR, {}, { token });
    expect(t.fake.calls.airQuality).toBe(1);
  });

  it("serves the last known report, marked stale, while the provider fails, and the weather without one when none is cached", async () => {
    const clock = manualClock();
    const t = await api({ now: clock.now });
    expect((await t.gql(AIR_AT, { lat: 51.51, lon: -0.13 })).data!.weatherAt.airQuality).toMatchObject({ stale: false });

    clock.advance(20 * 60_000); // past the 15-minute freshness, as forecasts
    t.fake.failAirQualityNext(500);
    const stale = await t.gql(AIR_AT, { lat: 51.51, lon: -0.13 });
    expect(stale.errors).toBeUndefined();
    expect(stale.data!.weatherAt.airQuality).toMatchObject({ stale: true, fetchedAt: "2026-05-12T10:15:00.000Z" });
    expect(stale.data!.weatherAt.stale).toBe(false);

    const recovered = await t.gql(AIR_AT, { lat: 51.51, lon: -0.13 });
    expect(recovered.data!.weatherAt.airQuality).toMatchObject({ stale: false, fetchedAt: "2026-05-12T10:35:00.000Z" });

    // Still failing three hours on, the cached report is too old to tell of the air now: the card goes without.
    clock.advance(3 * 3_600_000 + 60_000);
    t.fake.failAirQualityNext(500);
    const old = await t.gql(AIR_AT, { lat: 51.51, lon: -0.13 });
    expect(old.errors).toBeUndefined();
    expect(old.data!.weatherAt.airQuality).toBeNull();

    t.fake.failAirQualityNext("garbage");
    const none = await t.gql(AIR_AT, { lat: -33.87, lon: 151.21 });
    expect(none.errors).toBeUndefined();
    expect(none.data!.weatherAt).toMatchObject({ stale: false, airQuality: null });
  });

  it("keeps reports across a restart: a new process on the same data needs no upstream call", async () => {
    const first = await api();
    await first.gql(AIR_AT, { lat: 47.37, lon: 8.55 });
    expect(first.fake.calls.airQuality).toBe(1);
    const stored = () => first.api.services.db.selectFrom("air_quality_cache").select("coordinate_key").execute();
    // Written behind the answer (a second later); flushed here rather than waited for, which a loaded machine can outlast.
    await first.api.services.airQuality.flushStores();
    expect(await stored()).toEqual([{ coordinate_key: "47.37,8.55" }]);
    const second = await api({ dataDir: first.dataDir, databaseUrl: first.databaseUrl, fake: first.fake });
    expect((await second.gql(AIR_AT, { lat: 47.37, lon: 8.55 })).data!.weatherAt.airQuality?.stale).toBe(false);
    expect(first.fake.calls.airQuality).toBe(1);
  });
});
