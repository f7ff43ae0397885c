/**
 * Issue 34: more instances than 16 share a tick. Four engine processes on 64 shards (ENGINE_SHARDS) run one tick on
 * a database of users whose briefings are due and whose rules all fire; the same tick again with one of the four
 * killed (SIGKILL) right after its first claim, the other three finishing once its lease runs out. Each run is checked
 * against one instance alone on the same data: every shard done once, every message written once, none missed.
 *   npx tsx scripts/bench/engine-instances.ts [--db SQLite|PostgreSQL] [--users N]   (N ≤ 80: a user per degree of latitude)
 * The same machinery as tests/integration/engine-many-instances.test.ts, at the bench's size and with its figures printed.
 */
import { startFakeOpenMeteo } from "../../tests/fakes/open-meteo";
import { waitForLeasesToRunOut } from "../../tests/support/app-instances";
import { engineOutcome, seedEngineWork, startEngineInstance, type EngineInstance } from "../../tests/support/engine-fixture";
import { startBenchDatabases, type BenchDatabaseKind, type BenchDatabases, type BenchStore } from "./databases";

const NOW = "2026-06-01T05:00:30.000Z";
const SHARDS = 64;
const INSTANCES = 4;
const KILLED_LEASE_MS = 3_000;

type Outcome = Awaited<ReturnType<typeof engineOutcome>>;

export type InstancesRun = {
  label: string;
  instances: number;
  /** Shards done in the tick by the instances that finished it, counted with repeats. */
  shardsDone: number;
  shardsTwice: number;
  shardsMissed: number;
  messages: number;
  messagesTwice: number;
  messagesMissed: number;
  ms: number;
  note?: string;
};

export type InstancesBench = { kind: BenchDatabaseKind; users: number; rules: number; briefings: number; runs: InstancesRun[] };

export async function benchEngineInstances(databases: BenchDatabases, kind: BenchDatabaseKind, users = 80): Promise<InstancesBench> {
  const weather = await startFakeOpenMeteo({ now: () => new Date(NOW) });
  const stores: BenchStore[] = [];
  const seeded = await databases.fresh(kind);
  stores.push(seeded);
  await seedEngineWork(seeded, weather.url, NOW, users);
  // Each run on a copy of one seed: the same users, rules and ids, so their messages compare one for one.
  const fresh = async () => {
    const store = await databases.copy(seeded);
    stores.push(store);
    return store;
  };
  const started: EngineInstance[] = [];
  const start = async (store: BenchStore, count: number, leaseMs = 60_000) => {
    const group = Array.from({ length: count }, (_, index) =>
      startEngineInstance(store, weather.url, NOW, { id: `bench-${index}`, leaseMs, env: { ENGINE_SHARDS: String(SHARDS) } }),
    );
    started.push(...group);
    await Promise.all(group.map((instance) => instance.ready()));
    return group;
  };
  const tickDone = async (tick: number, group: EngineInstance[]) => {
    for (const instance of group) instance.tick(tick);
    return (await Promise.all(group.map((instance) => instance.passed(tick)))).flatMap((report) => report.shards);
  };
  try {
    const aloneStore = await fresh();
    const [alone] = await start(aloneStore, 1);
    const aloneStarted = performance.now();
    const aloneShards = await tickDone(1, [alone!]);
    const aloneMs = performance.now() - aloneStarted;
    await alone!.stop();
    const expected = await engineOutcome(aloneStore, weather.url, NOW);
    const runs = [compare("1 instance alone", 1, aloneShards, aloneMs, expected, expected)];

    const sharedStore = await fresh();
    const four = await start(sharedStore, INSTANCES);
    const sharedStarted = performance.now();
    const sharedShards = await tickDone(1, four);
    const sharedMs = performance.now() - sharedStarted;
    await Promise.all(four.map((instance) => instance.stop()));
    runs.push(
      compare(`${INSTANCES} instances`, INSTANCES, sharedShards, sharedMs, expected, await engineOutcome(sharedStore, weather.url, NOW)),
    );

    const killedStore = await fresh();
    const [victim, ...survivors] = await start(killedStore, INSTANCES, KILLED_LEASE_MS);
    const killedStarted = performance.now();
    victim!.tick(1);
    const firstTick = tickDone(1, survivors);
    await victim!.claimedOnce();
    await victim!.kill();
    await firstTick;
    // The killed instance's shards are claimable once its lease has run out: the next tick finishes them.
    await waitForLeasesToRunOut(killedStore);
    const finished = await tickDone(2, survivors);
    const killedMs = performance.now() - killedStarted;
    await Promise.all(survivors.map((instance) => instance.stop()));
    const afterKill = await engineOutcome(killedStore, weather.url, NOW);
    // The shards are those of the next tick, which the three do whole; the messages are both ticks' together.
    runs.push({
      ...compare(`${INSTANCES} instances, one killed mid-tick`, INSTANCES - 1, finished, killedMs, expected, afterKill),
      note: `killed holding ${victim!.claims.flat().length} shards, done by the others in the next tick; `,
    });
    const rules = users * 4;
    return { kind, users, rules, briefings: users * 2, runs };
  } finally {
    await Promise.all(started.map((instance) => instance.kill()));
    await weather.close();
    await Promise.all(stores.map((store) => store.remove()));
  }
}

function compare(label: string, instances: number, shards: number[], ms: number, expected: Outcome, outcome: Outcome): InstancesRun {
  const counts = new Map<number, number>();
  for (const shard of shards) counts.set(shard, (counts.get(shard) ?? 0) + 1);
  const written = new Set(outcome.contents);
  return {
    label,
    instances,
    shardsDone: shards.length,
    shardsTwice: [...counts.values()].filter((count) => count > 1).length,
    shardsMissed: SHARDS - counts.size,
    messages: outcome.total,
    messagesTwice: outcome.total - outcome.uniqueKeys,
    messagesMissed: expected.contents.filter((content) => !written.has(content)).length,
    ms,
  };
}

/** Rows for `npm run bench`: each run, with "exactly once" as its verdict. */
export function instancesRows(bench: InstancesBench): Array<[string, string, string]> {
  return bench.runs.map((run) => {
    const once = run.shardsTwice === 0 && run.shardsMissed === 0 && run.messagesTwice === 0 && run.messagesMissed === 0;
    return [
      `engine on ${bench.kind}: ${run.label}`,
      `${(run.ms / 1000).toFixed(1)} s`,
      `${run.note ?? ""}${SHARDS} shards: ${run.shardsDone} done, ${run.shardsTwice} twice, ${run.shardsMissed} missed; ${run.messages} messages ` +
        `(${bench.briefings} briefings due, ${bench.rules} rules firing): ${run.messagesTwice} twice, ${run.messagesMissed} missed` +
        ` — ${once ? "exactly once" : "NOT exactly once"}`,
    ];
  });
}

function flag(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index < 0 ? undefined : process.argv[index + 1];
}

if (process.argv[1]?.endsWith("engine-instances.ts")) {
  const databases = await startBenchDatabases();
  try {
    const kind = (flag("db") ?? "PostgreSQL") as BenchDatabaseKind;
    const bench = await benchEngineInstances(databases, kind, Number(flag("users") ?? 80));
    for (const [name, value, note] of instancesRows(bench)) console.log(`${name.padEnd(56)} ${value.padStart(8)}  ${note}`);
  } finally {
    await databases.stop();
  }
}
