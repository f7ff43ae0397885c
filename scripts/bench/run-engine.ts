/**
 * The engine section of `npm run bench` on its own (the whole benchmark builds and loads the app for
 * half an hour): `npx tsx scripts/bench/run-engine.ts [SQLite|PostgreSQL]`.
 */
import { startBenchDatabases, type BenchDatabaseKind } from "./databases";
import { benchEngine, warningRows } from "./engine";

const kinds = (process.argv.slice(2).length > 0 ? process.argv.slice(2) : ["SQLite", "PostgreSQL"]) as BenchDatabaseKind[];
const databases = await startBenchDatabases();
try {
  for (const kind of kinds) {
    console.log(`Running the engine benchmark on ${kind} (10,000 rules over 1,000 places, 3 ticks, without and with warnings)…`);
    const engine = await benchEngine(databases, kind);
    const row = (name: string, value: string, note = "") => console.log(`${name.padEnd(42)} ${value.padStart(10)}  ${note}`);
    row(
      `engine on ${kind}: one tick, cold cache`,
      `${engine.firstMs.toFixed(0)} ms`,
      `median of ${engine.samples.map((ms) => ms.toFixed(0)).join(", ")}; ${engine.alerts} alerts written`,
    );
    row(`engine on ${kind}: next tick, warm cache`, `${engine.warmMs.toFixed(0)} ms`);
    for (const [name, value, note] of warningRows(kind, engine, 2)) row(name, value, note);
  }
} finally {
  await databases.stop();
}
