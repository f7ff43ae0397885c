import type { APIRequestContext } from "@playwright/test";
import { startFakeOfficialWarnings } from "../../tests/fakes/official-warnings";
import { startFakeOpenMeteo, type Scenario } from "../../tests/fakes/open-meteo";
import { expect } from "../fixtures";
import { startAppServer, type AppServer } from "./app-server";

/** The engine's tick (app/api/index.server.ts): the scheduler passes on every multiple of it of the wall clock. */
export const TICK_MS = 30_000;

/**
 * An app server of the test's own, its weather from an Open-Meteo fake of its own that answers `scenario` (the run's
 * shared fake has no scenario control from a spec) and no official warnings anywhere, so that the engine's ticks
 * write only what the test's weather calls for. Its scheduler ticks as in production, every 30 s.
 */
export async function serverWithWeather(scenario: Scenario, env: Record<string, string> = {}) {
  const weather = await startFakeOpenMeteo();
  weather.setScenario(scenario);
  const warnings = await startFakeOfficialWarnings();
  let server: AppServer;
  try {
    server = await startAppServer({
      OPEN_METEO_FORECAST_URL: weather.url,
      OPEN_METEO_GEOCODING_URL: weather.url,
      NWS_ALERTS_URL: warnings.url,
      METEOALARM_URL: warnings.url,
      ...env,
    });
  } catch (error) {
    await Promise.all([weather.close(), warnings.close()]);
    throw error;
  }
  return {
    server,
    baseURL: server.baseURL,
    stop: async () => {
      await server.stop();
      await Promise.all([weather.close(), warnings.close()]);
    },
  };
}

/** The engine ticks the server has finished, as its /metrics count them (open to loopback); a failed one fails the test. */
export async function finishedTicks(request: APIRequestContext, baseURL: string): Promise<number> {
  const text = await (await request.get(`${baseURL}/metrics`)).text();
  const count = (outcome: string) =>
    Number(new RegExp(`^weatherbot_engine_tick_duration_seconds_count\\{outcome="${outcome}"\\} (\\d+)$`, "m").exec(text)?.[1] ?? 0);
  expect(count("error"), "failed engine ticks").toBe(0);
  return count("ok");
}

/** The period in which the test last saw a tick finished (within a second of its end: the reads' interval). */
export type TickSeen = { period: number };

const periodNow = () => Math.floor(Date.now() / TICK_MS);

/**
 * Waits until the next tick has finished. Nothing runs then until the next period's boundary: the scheduler starts a
 * tick only on a boundary and skips one while a tick runs, and a tick here takes milliseconds, so the one seen ending
 * early in a period is that period's own.
 */
async function tickFinished(request: APIRequestContext, baseURL: string): Promise<TickSeen> {
  const before = await finishedTicks(request, baseURL);
  let seen = { period: periodNow() };
  await expect
    .poll(
      async () => {
        seen = { period: periodNow() };
        return (await finishedTicks(request, baseURL)) > before;
      },
      { timeout: 2 * TICK_MS },
    )
    .toBe(true);
  return seen;
}

/**
 * Waits until a tick has finished and the next one is at least `marginMs` away (at once when `seen` says so): what the
 * test does now lies between two ticks, none of them under way. (Rules saved by several calls: a tick between two
 * calls would read some of them and the rest a tick later.)
 */
export async function betweenTicks(request: APIRequestContext, baseURL: string, seen?: TickSeen, marginMs = 12_000) {
  for (;;) {
    if (seen?.period === periodNow() && TICK_MS - (Date.now() % TICK_MS) >= marginMs) return { period: seen.period };
    seen = await tickFinished(request, baseURL);
  }
}

/**
 * After `betweenTicks` and the test's changes (which must not have reached the next tick's start: the test fails
 * otherwise, rather than pass on a tick that read only part of them): waits until the next tick has finished. It read
 * everything the test changed.
 */
export async function nextTickDone(request: APIRequestContext, baseURL: string, since: { period: number }): Promise<TickSeen> {
  expect(periodNow(), "the changes were made between two ticks").toBe(since.period);
  return tickFinished(request, baseURL);
}
