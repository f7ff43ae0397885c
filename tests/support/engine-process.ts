/**
 * One engine pass (due briefings and every alert rule) in its own process, on a data
 * directory, at a fixed time, for the kill-and-restart test:
 *   node --import tsx tests/support/engine-process.ts <dataDir> <weatherUrl> <nowIso> [databaseUrl]
 * It prints "ready" before the pass and "done" after it.
 */
import { createApi } from "../../app/api/index.server";

const [dataDir, weatherUrl, nowIso, databaseUrl] = process.argv.slice(2) as [string, string, string, string | undefined];
const now = () => new Date(nowIso);
const api = await createApi({
  production: true,
  dataDir,
  databaseUrl,
  openMeteoForecastUrl: weatherUrl,
  openMeteoGeocodingUrl: weatherUrl,
  now,
  scheduler: false,
});
process.stdout.write("ready\n");
await api.services.briefings.runDue();
await api.services.alerts.evaluateAll();
process.stdout.write("done\n");
await api.close();
