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
 * ENGINE_SHARDS sets how many shards the users are cut into (16 unless given);
 * NWS_ALERTS_URL and METEOALARM_URL point the warning services at a fake (else at the weather fake); TEST_SMTP_URL gives
 * it mail (test-mail.ts), and then a one-pass run prints "done" only once the outbox has nothing left to send.
 */
import { createApi } from "../../app/api/index.server";
import { runEngineCommands } from "./engine-commands";
import { childMailConfig } from "./test-mail";

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
  // TEST_SMTP_URL (and TEST_MAIL_LEASE_MS) from a test of email briefings: this process sends mail too.
  mail: childMailConfig(),
  now,
  scheduler: false,
  // ENGINE_SHARDS in its environment: the shard count (the server's setting of that name).
  engine:
    mode === "--shared"
      ? { instanceId, leaseMs: Number(leaseMs), intervalMs: 60_000, shards: Number(process.env.ENGINE_SHARDS) || undefined }
      : undefined,
});

if (mode === "--shared") {
  await runEngineCommands(api, "ready");
} else {
  process.stdout.write("ready\n");
  await api.services.briefings.runDue();
  await api.services.alerts.evaluateAll();
  await api.services.warningAlerts.runAll();
  if (api.services.mail.available) await drainOutbox(api);
  process.stdout.write("done\n");
}
await api.close();

/**
 * Sends until no mail is waiting: what this pass queued, and what a killed process held (claimable again once its
 * lease runs out, so this looks again at the sender's pace until then).
 */
async function drainOutbox(opened: typeof api) {
  const { db, mail } = opened.services;
  for (;;) {
    await mail.flush();
    const waiting = await db.selectFrom("mail_outbox").select("id").where("state", "=", "PENDING").limit(1).execute();
    if (waiting.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
