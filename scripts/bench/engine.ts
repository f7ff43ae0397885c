/**
 * Engine: 10,000 alert rules over 1,000 places (100 users × 10 places × 10 rules)
 * evaluated in one engine tick (decision 010: one instance alone takes every shard), against the Open-Meteo fake. Prints wall time and upstream calls:
 * the median of RUNS ticks, each on a fresh database with a cold forecast cache.
 */
import { randomUUID } from "node:crypto";
import { defaultSettings } from "../../app/api/db/settings-rows";
import { createApi } from "../../app/api/index.server";
import type { BenchDatabaseKind, BenchDatabases, BenchStore } from "./databases";
import { startFakeWeatherProcess } from "./fake-weather-process";
import { median } from "./median";

const USERS = 100;
const PLACES_PER_USER = 10;
const RULES_PER_PLACE = 10;
const RUNS = 3;

/** The engine's tick on one kind of database: each run on a fresh one. */
export async function benchEngine(databases: BenchDatabases, kind: BenchDatabaseKind) {
  const runs = [];
  for (let run = 0; run < RUNS; run++) {
    const store = await databases.fresh(kind);
    try {
      runs.push(await oneTick(store));
    } finally {
      await store.remove();
    }
  }
  return {
    rules: runs[0]!.rules,
    places: runs[0]!.places,
    alerts: runs[0]!.alerts,
    firstMs: median(runs.map((run) => run.firstMs)),
    warmMs: median(runs.map((run) => run.warmMs)),
    upstreamCalls: Math.max(...runs.map((run) => run.upstreamCalls)),
    samples: runs.map((run) => run.firstMs),
  };
}

async function oneTick({ dataDir, databaseUrl }: BenchStore) {
  // The provider runs in its own process, as it would on its own machine: its work is not the engine's.
  const weather = await startFakeWeatherProcess();
  const api = await createApi({
    production: true,
    dataDir,
    databaseUrl,
    openMeteoForecastUrl: weather.url,
    openMeteoAirQualityUrl: weather.url,
    openMeteoGeocodingUrl: weather.url,
    scheduler: false,
  });
  const { db } = api.services;
  try {
    const created = new Date().toISOString();
    await db.transaction().execute(async (trx) => {
      for (let u = 0; u < USERS; u++) {
        const userId = randomUUID();
        await trx
          .insertInto("users")
          .values({ id: userId, email: `u${u}@bench.example`, password_hash: "-", created_at: created })
          .execute();
        await trx
          .insertInto("settings")
          .values(defaultSettings(userId, "EN_US", "Europe/Berlin"))
          .execute();
        for (let p = 0; p < PLACES_PER_USER; p++) {
          const placeId = randomUUID();
          const index = u * PLACES_PER_USER + p;
          await trx
            .insertInto("places")
            .values({
              id: placeId,
              user_id: userId,
              label: `P${p}`,
              name: `P${p}`,
              admin1: null,
              country_code: null,
              latitude: -60 + (index % 120),
              longitude: -170 + Math.floor(index / 120) * 3,
              time_zone: "UTC",
              position: p,
              created_at: created,
            })
            .execute();
          await trx
            .insertInto("alert_rules")
            .values(
              Array.from({ length: RULES_PER_PLACE }, (_, r) => ({
                id: randomUUID(),
                user_id: userId,
                name: `R${r}`,
                enabled: 1,
                place_id: placeId,
                metric: r % 2 ? "WIND_GUSTS" : "TEMPERATURE",
                comparator: "AT_LEAST",
                threshold: r % 2 ? 50 + r : 20 + r,
                conditions: null,
                lookahead_hours: 24,
                active_days: "MON,TUE,WED,THU,FRI,SAT,SUN",
                active_from: null,
                active_to: null,
                urgent: 0,
                notify_all_clear: 0,
                cooldown_hours: 6,
                snoozed_until: null,
                created_at: created,
                // Rules the engine has read before: not new (see summariseNewRules).
                watched_since: created,
              })),
            )
            .execute();
        }
      }
    });
    // Let the fake provider generate its answers first, so the tick waits on it only as
    // long as it would wait on the real service answering from its own cache.
    const coordinates = await db.selectFrom("places").select(["latitude", "longitude"]).execute();
    for (let start = 0; start < coordinates.length; start += 100) {
      const batch = coordinates.slice(start, start + 100);
      const url = new URL(`${weather.url}/v1/forecast`);
      url.searchParams.set("latitude", batch.map((c) => c.latitude.toFixed(2)).join(","));
      url.searchParams.set("longitude", batch.map((c) => c.longitude.toFixed(2)).join(","));
      url.searchParams.set("timeformat", "unixtime");
      url.searchParams.set("forecast_days", "8");
      await (await fetch(url)).arrayBuffer();
    }
    const callsBefore = (await weather.calls()).forecast;
    // A tick as the scheduler runs it: claiming the shards (all of them, alone), due briefings, rules, digests.
    const started = performance.now();
    const first = await api.engine.pass(1);
    const firstMs = performance.now() - started;
    const upstreamCalls = (await weather.calls()).forecast - callsBefore;
    const again = performance.now();
    await api.engine.pass(2);
    const warmMs = performance.now() - again;
    return {
      rules: USERS * PLACES_PER_USER * RULES_PER_PLACE,
      places: USERS * PLACES_PER_USER,
      firstMs,
      warmMs,
      upstreamCalls,
      alerts: first.alerts,
    };
  } finally {
    await api.close();
    await weather.close();
  }
}
