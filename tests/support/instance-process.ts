/**
 * One whole Weatherbot instance in its own process, for the several-instances tests:
 *   node --import tsx tests/support/instance-process.ts <dataDir> <weatherUrl> <nowIso> <instanceId> <leaseMs>
 * The API on the data directory (or on DATABASE_URL's PostgreSQL database), served as
 * production serves it (/graphql over HTTP and WebSocket) on a free loopback port, with no
 * scheduler: the engine's ticks come as "tick N" lines on stdin (see engine-commands.ts).
 * Prints "ready <port>" once registered and listening, then the claim and pass reports.
 */
import { createApi } from "../../app/api/index.server";
import { runEngineCommands } from "./engine-commands";
import { childMailConfig } from "./test-mail";
import { serveApi } from "./serve-api";

const [dataDir, weatherUrl, nowIso, instanceId, leaseMs] = process.argv.slice(2) as [string, string, string, string, string];
const api = await createApi({
  production: true,
  dataDir,
  databaseUrl: process.env.DATABASE_URL || undefined,
  openMeteoForecastUrl: weatherUrl,
  openMeteoAirQualityUrl: weatherUrl,
  openMeteoGeocodingUrl: weatherUrl,
  // NWS_ALERTS_URL / METEOALARM_URL from the test (the warnings fake), else the weather fake: never the real services.
  nwsAlertsUrl: process.env.NWS_ALERTS_URL || weatherUrl,
  meteoAlarmUrl: process.env.METEOALARM_URL || weatherUrl,
  // TEST_SMTP_URL (and TEST_MAIL_LEASE_MS) from a test of email briefings: this process sends mail too.
  mail: childMailConfig(),
  now: () => new Date(nowIso),
  scheduler: false,
  passwordHashCost: "test",
  pushAllowLoopback: true,
  engine: { instanceId, leaseMs: Number(leaseMs), intervalMs: 60_000 },
});
const served = await serveApi(api, { buildId: "instance-process" });
await runEngineCommands(api, `ready ${served.port}`);
await served.close();
await api.close();
