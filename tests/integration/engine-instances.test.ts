import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINE_SHARDS } from "~/api/bot/shard-ranges";
import { startFakeOpenMeteo, type FakeOpenMeteo } from "../fakes/open-meteo";
import { engineOutcome, seedEngineWork, startEngineInstance, type EngineInstance, type EngineStore } from "../support/engine-fixture";
import { waitForLeasesToRunOut } from "../support/app-instances";
import { copyTestDatabase, testDatabaseUrl } from "../support/test-database";

/*
 * Several engine processes on one database share each tick (decision 010): every due briefing
 * and alert is written exactly once, the shards are spread over the instances, and when one is
 * killed with SIGKILL mid-pass the others finish its shards by the next tick.
 */
const NOW = "2026-06-01T05:00:30.000Z";
const USERS = 40;
const ALL_SHARDS = Array.from({ length: ENGINE_SHARDS }, (_, shard) => shard);

let weather: FakeOpenMeteo;
let template: EngineStore;
const dirs: string[] = [];
const instances: EngineInstance[] = [];
let expected: Awaited<ReturnType<typeof engineOutcome>>;

async function freshDir() {
  const dir = await mkdtemp(path.join(tmpdir(), "weatherbot-instances-"));
  dirs.push(dir);
  return dir;
}

/** A copy of the seeded data directory (SQLite's file is in it) and of its PostgreSQL database. */
async function copyOfTemplate(): Promise<EngineStore> {
  const dataDir = await freshDir();
  await cp(template.dataDir, dataDir, { recursive: true });
  return { dataDir, databaseUrl: template.databaseUrl && (await copyTestDatabase(template.databaseUrl)) };
}

async function start(dir: EngineStore, count: number, leaseMs = 60_000) {
  const started = Array.from({ length: count }, (_, index) =>
    startEngineInstance(dir, weather.url, NOW, { id: `instance-${String.fromCharCode(65 + index)}`, leaseMs }),
  );
  instances.push(...started);
  await Promise.all(started.map((instance) => instance.ready()));
  return started;
}

beforeAll(async () => {
  weather = await startFakeOpenMeteo({ now: () => new Date(NOW) });
  template = { dataDir: await freshDir(), databaseUrl: await testDatabaseUrl() };
  await seedEngineWork(template, weather.url, NOW, USERS);
  // What one instance alone writes in a tick: everything, in one claim of every shard.
  const alone = await copyOfTemplate();
  const [single] = await start(alone, 1);
  single!.tick(1);
  const report = await single!.passed(1);
  expect(report.shards).toEqual(ALL_SHARDS);
  expect(single!.claims).toEqual([ALL_SHARDS]);
  await single!.stop();
  expected = await engineOutcome(alone, weather.url, NOW);
  expect(expected.briefings).toBe(USERS * 2);
  // Four rules on every place per user, each crossing: one alert per rule, however many places and windows.
  expect(expected.alerts).toBe(USERS * 4);
  expect(expected.uniqueKeys).toBe(expected.total);
}, 120_000);

afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.kill()));
  await weather?.close();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("several engine instances on one database", () => {
  it("share every tick: each due briefing and alert is written once, no claim more than a share", async () => {
    const dir = await copyOfTemplate();
    const trio = await start(dir, 3);
    for (const tick of [1, 2]) {
      for (const instance of trio) instance.tick(tick);
      const reports = await Promise.all(trio.map((instance) => instance.passed(tick)));
      const done = reports.flatMap((report) => report.shards).sort((a, b) => a - b);
      // Every shard once per tick, by one instance; no claim takes more than an instance's share (a third), so the
      // others find work when they come. (Whether they come before the first has finished is the machine's timing: a
      // change-driven pass can take every share in turn before another instance starts.)
      expect(done).toEqual(ALL_SHARDS);
      const claims = trio.flatMap((instance) => instance.claims);
      expect(Math.max(...claims.map((claim) => claim.length))).toBeLessThanOrEqual(Math.ceil(ALL_SHARDS.length / trio.length));
      const after = await engineOutcome(dir, weather.url, NOW);
      expect(after.contents).toEqual(expected.contents);
      expect(after.uniqueKeys).toBe(after.total);
      expect(after.stillDue).toBe(0);
      expect([after.untold, after.unbacked]).toEqual([0, 0]);
      expect(after.shards.map((shard) => shard.done_tick)).toEqual(ALL_SHARDS.map(() => tick));
      if (tick === 1) {
        expect(reports.reduce((sum, report) => sum + report.briefings, 0)).toBe(expected.briefings);
      } else {
        expect(reports.reduce((sum, report) => sum + report.briefings + report.alerts, 0)).toBe(0);
      }
    }
    await Promise.all(trio.map((instance) => instance.stop()));
  }, 120_000);

  it("lose nothing when one is killed with SIGKILL mid-pass: the others finish its shards by the next tick, once", async () => {
    const dir = await copyOfTemplate();
    const [victim, ...survivors] = await start(dir, 3, 3_000);
    for (const instance of [victim!, ...survivors]) instance.tick(1);
    // Killed as soon as it holds shards: its pass has begun and cannot have finished them.
    await victim!.claimedOnce();
    await victim!.kill();
    await Promise.all(survivors.map((instance) => instance.passed(1)));
    const held = victim!.claims.flat();
    expect(held.length).toBeGreaterThan(0);

    // The next tick starts after the dead instance's lease has run out (the lease is shorter than a tick).
    await waitForLeasesToRunOut(dir);
    for (const instance of survivors) instance.tick(2);
    const reports = await Promise.all(survivors.map((instance) => instance.passed(2)));
    expect(reports.flatMap((report) => report.shards).sort((a, b) => a - b)).toEqual(ALL_SHARDS);

    const after = await engineOutcome(dir, weather.url, NOW);
    // Every expected message exactly once, by key and by content; every briefing moved on; every alert with its episode.
    expect(after.contents).toEqual(expected.contents);
    expect(after.uniqueKeys).toBe(after.total);
    expect(after.stillDue).toBe(0);
    expect([after.untold, after.unbacked]).toEqual([0, 0]);
    // The shards the dead instance held were finished by the others.
    const finishedBy = new Map(after.shards.map((shard) => [shard.shard, shard.owner]));
    for (const shard of held) expect(finishedBy.get(shard)).not.toBe(victim!.id);
    await Promise.all(survivors.map((instance) => instance.stop()));
  }, 120_000);
});
