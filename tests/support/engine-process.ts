/**
 * The engine in its own process, on a data directory, at a fixed time:
 *   node --import tsx tests/support/engine-process.ts <dataDir> <weatherUrl> <nowIso>
 * runs one pass over everything (due briefings, every alert rule, official warnings), printing "ready" before
 * it and "done" after it (the kill-and-restart test).
 *   … <dataDir> <weatherUrl> <nowIso> --shared <instanceId> <leaseMs>
 * is one of several instances sharing ticks (decision 010): it registers, prints "ready", and
 * for each "tick N" line on stdin runs that tick's pass, printing "claimed [shards]" for each
 * claim and "passed {report}" at the end; "exit" (or the end of stdin) ends it.
 * DATABASE_URL in its environment puts it on that database instead of the data directory's SQLite file;
 * NWS_ALERTS_URL and METEOALARM_URL point the warning services at a fake (else at the weather fake).
 */
import { createApi } from "../../app/api/index.server";
import { runEngineCommands } from "./engine-commands";

const [dataDir, weatherUrl, nowIso, mode, instanceId, leaseMs] = process.argv.slice(2) as [
  string,
  string,
  string,
  string?,
  string?,
  string?,
];
const now = () => new Date(nowIso);
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
  now,
  scheduler: false,
  engine: mode === "--shared" ? { instanceId, leaseMs: Number(leaseMs), intervalMs: 60_000 } : undefined,
});

if (mode === "--shared") {
  await runEngineCommands(api, "ready");
} else {
  process.stdout.write("ready\n");
  await api.services.briefings.runDue();
  await api.services.alerts.evaluateAll();
  await api.services.warningAlerts.runAll();
  process.stdout.write("done\n");
}
await api.close();
