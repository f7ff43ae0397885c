import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "~/api/db/database.server";
import { noMetrics } from "~/api/metrics.server";
import { createForecastService } from "~/api/weather/forecast-service.server";
import { createOpenMeteoClient } from "~/api/weather/open-meteo.server";
import { startFakeOpenMeteo, type FakeOpenMeteo } from "../fakes/open-meteo";
import { testDatabaseUrl } from "../support/test-database";

/*
 * The forecasts kept in memory are bounded (issue 34: the engine watches 100,000 places at scale): the least recently
 * read go first, and one evicted is read back from the database table, not asked of the provider again.
 */
let fake: FakeOpenMeteo;
let db: Db;
beforeAll(async () => {
  fake = await startFakeOpenMeteo();
  db = (await openDatabase((await testDatabaseUrl()) ?? ":memory:")).db;
});
afterAll(async () => {
  await db.destroy();
  await fake.close();
});

describe("forecasts in memory", () => {
  it("keep at most their bound; one evicted comes back from the database without an upstream call", async () => {
    const lookups: boolean[] = [];
    const client = createOpenMeteoClient({ forecastUrl: fake.url, geocodingUrl: fake.url, airQualityUrl: fake.url, retryDelayMs: 0 });
    const forecasts = createForecastService({
      client,
      db,
      memoryEntries: 2,
      metrics: { ...noMetrics, cacheLookup: (_cache, hit) => lookups.push(hit) },
    });
    const [zurich, tokyo, lima] = [
      { latitude: 47.37, longitude: 8.55 },
      { latitude: 35.68, longitude: 139.69 },
      { latitude: -12.05, longitude: -77.04 },
    ];
    await Promise.all([zurich, tokyo, lima].map((place) => forecasts.get(place)));
    await forecasts.flushStores();
    expect(fake.calls.forecast).toBe(1);

    lookups.length = 0;
    // The two read last are in memory; the first was evicted by the third.
    await forecasts.get(lima);
    const again = await forecasts.get(zurich);
    expect(lookups).toEqual([true, false]);
    expect(again.forecast.timeZone).toBe("Europe/Zurich");
    expect(again.stale).toBe(false);
    expect(fake.calls.forecast).toBe(1);
  });
});
