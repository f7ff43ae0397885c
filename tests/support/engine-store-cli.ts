/**
 * The engine fixture's seeding and outcome for tests that cannot load the API themselves (the
 * end-to-end runner, whose loader does not import JSON modules):
 *   node --import tsx tests/support/engine-store-cli.ts seed <dataDir> <weatherUrl> <nowIso> <users>
 *   node --import tsx tests/support/engine-store-cli.ts outcome <dataDir> <weatherUrl> <nowIso>
 * DATABASE_URL in its environment puts it on that database. `outcome` prints engineOutcome's
 * counts as one JSON line.
 */
import { engineOutcome, seedEngineWork } from "./engine-fixture";

const [command, dataDir, weatherUrl, nowIso, users] = process.argv.slice(2) as [string, string, string, string, string?];
const store = { dataDir, databaseUrl: process.env.DATABASE_URL || undefined };
if (command === "seed") {
  await seedEngineWork(store, weatherUrl, nowIso, Number(users));
} else {
  const { briefings, alerts, total, stillDue } = await engineOutcome(store, weatherUrl, nowIso);
  process.stdout.write(`${JSON.stringify({ briefings, alerts, total, stillDue })}\n`);
}
