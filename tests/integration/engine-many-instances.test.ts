import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenMeteo, type FakeOpenMeteo } from "../fakes/open-meteo";
import { waitForLeasesToRunOut } from "../support/app-instances";
import { engineOutcome, seedEngineWork, startEngineInstance, type EngineInstance, type EngineStore } from "../support/engine-fixture";
import { copyTestDatabase, testDatabaseUrl } from "../support/test-database";

/*
 * The shard count is a setting (decision 026): with 64 shards, four engine processes share each tick, every shard
 * done once, every due briefing and alert written once, also when one of them is killed with SIGKILL mid-pass.
 */
const NOW = "2026-06-01T05:00:30.000Z";
const USERS = 40;
const SHARDS = 64;
const ALL_SHARDS = Array.from({ length: SHARDS }, (_, shard) => shard);

let weather: FakeOpenMeteo;
let template: EngineStore;
const dirs: string[] = [];
const instances: EngineInstance[] = [];
let expected: Awaited<ReturnType<typeof engineOutcome>>;

async function copyOfTemplate(): Promise<EngineStore> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "weatherbot-many-"));
  dirs.push(dataDir);
  await cp(template.dataDir, dataDir, { recursive: true });
  return { dataDir, databaseUrl: template.databaseUrl && (await copyTestDatabase(template.databaseUrl)) };
}

async function start(dir: EngineStore, count: number, leaseMs = 60_000) {
  const started = Array.from({ length: count }, (_, index) =>
    startEngineInstance(dir, weather.url, NOW, { id: `many-${index}`, leaseMs, env: { ENGINE_SHARDS: String(SHARDS) } }),
  );
  instances.push(...started);
  await Promise.all(started.map((instance) => instance.ready()));
  return started;
}

beforeAll(async () => {
  weather = await startFakeOpenMeteo({ now: () => new Date(NOW) });
  template = { dataDir: await mkdtemp(path.join(tmpdir(), "weatherbot-many-")), databaseUrl: await testDatabaseUrl() };
  dirs.push(template.dataDir);
  await seedEngineWork(template, weather.url, NOW, USERS);
  const alone = await copyOfTemplate();
  const [single] = await start(alone, 1);
  single!.tick(1);
  expect((await single!.passed(1)).shards).toEqual(ALL_SHARDS);
  await single!.stop();
  expected = await engineOutcome(alone, weather.url, NOW);
  expect([expected.briefings, expected.alerts]).toEqual([USERS * 2, USERS * 4]);
}, 120_000);

afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.kill()));
  await weather?.close();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** What the single instance wrote, each message once; no briefing still due, no alert without its episode or back. */
async function writtenOnce(dir: EngineStore) {
  const after = await engineOutcome(dir, weather.url, NOW);
  expect({
    contents: after.contents,
    unique: after.uniqueKeys,
    due: after.stillDue,
    untold: after.untold,
    unbacked: after.unbacked,
  }).toEqual({
    contents: expected.contents,
    unique: after.total,
    due: 0,
    untold: 0,
    unbacked: 0,
  });
  return after;
}

/** The shards every instance did in `tick`, sorted. */
async function doneIn(tick: number, working: EngineInstance[]) {
  for (const instance of working) instance.tick(tick);
  const reports = await Promise.all(working.map((instance) => instance.passed(tick)));
  return reports.flatMap((report) => report.shards).sort((a, b) => a - b);
}

describe("four engine instances on 64 shards", () => {
  it("share every tick: each shard done once, each briefing and alert written once", async () => {
    const dir = await copyOfTemplate();
    const four = await start(dir, 4);
    for (const tick of [1, 2]) {
      expect(await doneIn(tick, four)).toEqual(ALL_SHARDS);
      // A share is a quarter of the shards: no instance claims more at once, and the work is spread.
      expect(four.every((instance) => instance.claims.every((claim) => claim.length <= SHARDS / 4))).toBe(true);
      expect(four.filter((instance) => instance.claims.length > 0).length).toBeGreaterThan(1);
      const after = await writtenOnce(dir);
      expect(after.shards.map((shard) => shard.done_tick)).toEqual(ALL_SHARDS.map(() => tick));
    }
    await Promise.all(four.map((instance) => instance.stop()));
  }, 120_000);

  it("lose nothing when one is killed mid-pass: the other three finish its shards, once", async () => {
    const dir = await copyOfTemplate();
    const [victim, ...survivors] = await start(dir, 4, 3_000);
    victim!.tick(1);
    const others = doneIn(1, survivors);
    await victim!.claimedOnce();
    await victim!.kill();
    await others;
    const held = victim!.claims.flat();
    expect(held.length).toBeGreaterThan(0);
    await waitForLeasesToRunOut(dir);
    expect(await doneIn(2, survivors)).toEqual(ALL_SHARDS);
    const owners = new Map((await writtenOnce(dir)).shards.map((shard) => [shard.shard, shard.owner]));
    expect(held.filter((shard) => owners.get(shard) === victim!.id)).toEqual([]);
    await Promise.all(survivors.map((instance) => instance.stop()));
  }, 120_000);
});
