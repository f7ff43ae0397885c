import type { FullConfig } from "@playwright/test";
import { startFakeOfficialWarnings } from "../tests/fakes/official-warnings";
import { startFakeOpenMeteo } from "../tests/fakes/open-meteo";
import { startFakeSmtp } from "../tests/fakes/smtp";
import { tornadoWatchInForce } from "../tests/support/warnings-in-force";
import { startAppServer } from "./support/app-server";
import { buildNextVersion } from "./support/next-build";

/** New York in the Open-Meteo fake's geocoding, as the NWS is asked for it (rounded to 0.01°). */
export const NEW_YORK_POINT = "40.71,-74.01";

/**
 * One production server for the whole run, its weather from the loopback Open-Meteo
 * fake and its official warnings from the loopback fake of the NWS and MeteoAlarm; tests read
 * the addresses from E2E_BASE_URL, E2E_FAKE_WEATHER_URL and E2E_FAKE_WARNINGS_URL (the servers
 * specs start themselves take the same warnings: e2e/support/app-server.ts). New York (searched
 * for by name, so with its country) is under a real NWS Tornado Watch, moved to the run's clock
 * and to New York's county names (tests/support/warnings-in-force.ts); every other place has none.
 * A second build of the app (E2E_NEXT_BUILD_ENTRY, id E2E_NEXT_BUILD_ID) is made before any test
 * runs, so the update test does not build while other tests measure. A run without that test (the calendar's:
 * E2E_NO_NEXT_BUILD=1) skips that build. The server sends mail to a loopback SMTP fake (tests/fakes/smtp.ts), whose
 * received mail specs read over HTTP at E2E_FAKE_SMTP_URL (e2e/support/mail.ts); servers specs start themselves
 * send none unless they say so (the "no SMTP" state).
 */
export default async function globalSetup(_config: FullConfig) {
  const next = process.env.E2E_NO_NEXT_BUILD ? null : buildNextVersion();
  if (next) {
    process.env.E2E_NEXT_BUILD_ENTRY = next.entry;
    process.env.E2E_NEXT_BUILD_ID = next.buildId;
  }
  const weather = await startFakeOpenMeteo();
  const warnings = await startFakeOfficialWarnings();
  // In force for the run's week (a run takes minutes; the pages' clocks start at the same instant).
  warnings.nws.setActive(NEW_YORK_POINT, [tornadoWatchInForce(new Date(), { hours: 7 * 24, areaDesc: "New York (Manhattan), NY" })]);
  process.env.E2E_FAKE_WARNINGS_URL = warnings.url;
  const smtp = await startFakeSmtp({ http: true });
  process.env.E2E_FAKE_SMTP_URL = smtp.httpUrl;
  const server = await startAppServer({
    OPEN_METEO_FORECAST_URL: weather.url,
    OPEN_METEO_GEOCODING_URL: weather.url,
    SMTP_URL: smtp.url,
    MAIL_FROM: "Weatherbot <bot@weatherbot.test>",
  });
  process.env.E2E_BASE_URL = server.baseURL;
  process.env.E2E_FAKE_WEATHER_URL = weather.url;
  return async () => {
    await server.stop();
    await weather.close();
    await warnings.close();
    await smtp.close();
    next?.dispose();
  };
}
