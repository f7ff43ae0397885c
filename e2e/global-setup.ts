import type { FullConfig } from "@playwright/test";
import { startFakeOpenMeteo } from "../tests/fakes/open-meteo";
import { startAppServer } from "./support/app-server";
import { buildNextVersion } from "./support/next-build";

/**
 * One production server for the whole run, its weather from the loopback Open-Meteo
 * fake; tests read the addresses from E2E_BASE_URL and E2E_FAKE_WEATHER_URL. A second
 * build of the app (E2E_NEXT_BUILD_ENTRY, id E2E_NEXT_BUILD_ID) is made before any test
 * runs, so the update test does not build while other tests measure. A run without that test (the calendar's:
 * E2E_NO_NEXT_BUILD=1) skips that build.
 */
export default async function globalSetup(_config: FullConfig) {
  const next = process.env.E2E_NO_NEXT_BUILD ? null : buildNextVersion();
  if (next) {
    process.env.E2E_NEXT_BUILD_ENTRY = next.entry;
    process.env.E2E_NEXT_BUILD_ID = next.buildId;
  }
  const weather = await startFakeOpenMeteo();
  const server = await startAppServer({ OPEN_METEO_FORECAST_URL: weather.url, OPEN_METEO_GEOCODING_URL: weather.url });
  process.env.E2E_BASE_URL = server.baseURL;
  process.env.E2E_FAKE_WEATHER_URL = weather.url;
  return async () => {
    await server.stop();
    await weather.close();
    next?.dispose();
  };
}
