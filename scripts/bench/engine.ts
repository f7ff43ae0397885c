/**
 * Engine: 10,000 alert rules over 1,000 places (100 users × 10 places × 10 rules)
 * evaluated in one engine tick (decision 010: one instance alone takes every shard), against the Open-Meteo fake. Prints wall time and upstream calls:
 * the median of RUNS ticks, each on a fresh database with a cold forecast cache.
 * The same tick with official warnings on (issue 32): the same places in the US and France, so
 * every one is covered, against the warnings fake (in force: a Tornado Watch at every US point,
 * an avalanche warning in France): 500 NWS grid points and one MeteoAlarm country to fetch cold.
 */
import { randomUUID } from "node:crypto";
import { defaultSettings } from "../../app/api/db/settings-rows";
import { createApi } from "../../app/api/index.server";
import type { BenchDatabaseKind, BenchDatabases, BenchStore } from "./databases";
import { startFakeWarningsProcess, type WarningRequests } from "./fake-warnings-process";
import { startFakeWeatherProcess } from "./fake-weather-process";
import { median } from "./median";

const USERS = 100;
const PLACES_PER_USER = 10;
const RULES_PER_PLACE = 10;
// BENCH_ENGINE_RUNS=1 for a quick look (run-engine.ts); the figures are the median of 3.
const RUNS = Number(process.env.BENCH_ENGINE_RUNS ?? 3);

/** The engine's tick on one kind of database, without and with official warnings: each run on a fresh one, the two in turn. */
export async function benchEngine(databases: BenchDatabases, kind: BenchDatabaseKind) {
  const runs: Array<Awaited<ReturnType<typeof oneTick>>> = [];
  const warned: Array<Awaited<ReturnType<typeof oneTick>>> = [];
  for (let run = 0; run < RUNS; run++) {
    for (const [warnings, into] of [
      [false, runs],
      [true, warned],
    ] as const) {
      const store = await databases.fresh(kind);
      try {
        into.push(await oneTick(store, warnings));
      } finally {
        await store.remove();
      }
    }
  }
  const firstMs = median(runs.map((run) => run.firstMs));
  const warmMs = median(runs.map((run) => run.warmMs));
  const withWarnings = {
    firstMs: median(warned.map((run) => run.firstMs)),
    warmMs: median(warned.map((run) => run.warmMs)),
    samples: warned.map((run) => run.firstMs),
    messages: warned[0]!.warnings,
    requests: warned[0]!.warningRequests,
  };
  return {
    rules: runs[0]!.rules,
    places: runs[0]!.places,
    alerts: runs[0]!.alerts,
    firstMs,
    warmMs,
    upstreamCalls: Math.max(...runs.map((run) => run.upstreamCalls)),
    samples: runs.map((run) => run.firstMs),
    withWarnings: { ...withWarnings, firstRatio: withWarnings.firstMs / firstMs, warmRatio: withWarnings.warmMs / warmMs },
  };
}

async function oneTick({ dataDir, databaseUrl }: BenchStore, warningsOn: boolean) {
  // The providers run in processes of their own, as they would on their own machines: their work is not the engine's.
  const weather = await startFakeWeatherProcess();
  const warnings = await startFakeWarningsProcess();
  const api = await createApi({
    production: true,
    dataDir,
    databaseUrl,
    openMeteoForecastUrl: weather.url,
    openMeteoAirQualityUrl: weather.url,
    openMeteoGeocodingUrl: weather.url,
    nwsAlertsUrl: warnings.url,
    meteoAlarmUrl: warnings.url,
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
          // With warnings on, every place is covered: half by the NWS (each its own grid point), half by MeteoAlarm
          // (France, named as one of the warning's areas, so that it is announced).
          const covered = warningsOn ? (index % 2 ? { country_code: "FR", name: "Isère" } : { country_code: "US", name: `P${p}` }) : null;
          await trx
            .insertInto("places")
            .values({
              id: placeId,
              user_id: userId,
              label: `P${p}`,
              name: covered?.name ?? `P${p}`,
              admin1: null,
              country_code: covered?.country_code ?? null,
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
    const requestsBefore = await warnings.requests();
    // A tick as the scheduler runs it: claiming the shards (all of them, alone), due briefings, rules, digests.
    const started = performance.now();
    const first = await api.engine.pass(1);
    const firstMs = performance.now() - started;
    const upstreamCalls = (await weather.calls()).forecast - callsBefore;
    const requestsAfter = await warnings.requests();
    const warningRequests = Object.fromEntries(
      Object.entries(requestsAfter).map(([name, count]) => [name, count - requestsBefore[name as keyof WarningRequests]]),
    ) as WarningRequests;
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
      warnings: first.warnings,
      warningRequests,
    };
  } finally {
    await api.close();
    await weather.close();
    await warnings.close();
  }
}

/** The rows of the tick with warnings on, beside today's: its time and its ratio to it, cold and warm. */
export function warningRows(
  kind: BenchDatabaseKind,
  engine: Awaited<ReturnType<typeof benchEngine>>,
  most: number,
): Array<[string, string, string]> {
  const { withWarnings: warned } = engine;
  const within = (ratio: number) => (ratio < most ? "within" : "OVER");
  const { nws, feeds, documents } = warned.requests;
  return [
    [
      `engine on ${kind}: tick with warnings, cold`,
      `${warned.firstMs.toFixed(0)} ms`,
      `${warned.firstRatio.toFixed(2)}× today's tick (median of ${warned.samples.map((ms) => ms.toFixed(0)).join(", ")}); ${warned.messages} warnings written; ${nws} NWS, ${feeds} feed, ${documents} CAP requests; target < ${most}×: ${within(warned.firstRatio)}`,
    ],
    [
      `engine on ${kind}: tick with warnings, warm`,
      `${warned.warmMs.toFixed(0)} ms`,
      `${warned.warmRatio.toFixed(2)}× today's warm tick; target < ${most}×: ${within(warned.warmRatio)}`,
    ],
  ];
}
