import { spawn } from "node:child_process";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenMeteo, type FakeOpenMeteo } from "../fakes/open-meteo";
import { ENGINE_ENTRY, engineOutcome, seedEngineWork, warningsEnv, type EngineStore } from "../support/engine-fixture";
import { copyTestDatabase, testDatabaseUrl } from "../support/test-database";

/*
 * The engine in a real process, killed with SIGKILL at several moments of a pass over
 * 40 briefings and 400 alert rules, then run again: every message is written exactly
 * once, and every alert has the state that goes with it.
 */
const NOW = "2026-06-01T05:00:30.000Z";
const USERS = 20;

let weather: FakeOpenMeteo;
const dirs: string[] = [];
beforeAll(async () => {
  weather = await startFakeOpenMeteo({ now: () => new Date(NOW) });
});
afterAll(async () => {
  await weather.close();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function freshDir() {
  const dir = await mkdtemp(path.join(tmpdir(), "weatherbot-kill-"));
  dirs.push(dir);
  return dir;
}

async function freshStore(): Promise<EngineStore> {
  return { dataDir: await freshDir(), databaseUrl: await testDatabaseUrl() };
}

/** A copy of everything `from` holds: its data directory (SQLite's file is in it) and its PostgreSQL database. */
async function copyStore(from: EngineStore): Promise<EngineStore> {
  const dataDir = await freshDir();
  await cp(from.dataDir, dataDir, { recursive: true });
  return { dataDir, databaseUrl: from.databaseUrl && (await copyTestDatabase(from.databaseUrl)) };
}

/** Runs one pass in a child; `killAfterMs` kills it with SIGKILL that long after it is ready. */
function pass(store: EngineStore, killAfterMs?: number): Promise<"done" | "killed"> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", ENGINE_ENTRY, store.dataDir, weather.url, NOW], {
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, DATABASE_URL: store.databaseUrl ?? "", ...warningsEnv(weather.url) },
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (killAfterMs !== undefined && output.includes("ready")) setTimeout(() => child.kill("SIGKILL"), killAfterMs).unref();
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (signal === "SIGKILL") resolve("killed");
      else if (code === 0 && output.includes("done")) resolve("done");
      else reject(new Error(`engine process exited with ${code ?? signal}: ${output}`));
    });
  });
}

const seed = (store: EngineStore) => seedEngineWork(store, weather.url, NOW, USERS);
const outcome = (store: EngineStore) => engineOutcome(store, weather.url, NOW);

describe("the engine killed mid-pass", () => {
  it("writes every message exactly once after a restart, with the state that goes with each alert", async () => {
    const template = await freshStore();
    await seed(template);

    // What one pass that nobody interrupts writes.
    const clean = await copyStore(template);
    expect(await pass(clean)).toBe("done");
    const expected = await outcome(clean);
    expect(expected.briefings).toBe(USERS * 2);
    expect(expected.alerts).toBe(USERS * 4);
    // Four rules on every place per user, each crossing: one alert per rule telling every place and window.
    expect(expected.episodes).toBeGreaterThan(expected.alerts);

    const kills: string[] = [];
    for (const delay of [0, 40, 120, 300]) {
      const store = await copyStore(template);
      kills.push(await pass(store, delay));
      // Killed twice in a row, then a pass that finishes.
      kills.push(await pass(store, delay + 20));
      expect(await pass(store)).toBe("done");
      const after = await outcome(store);
      expect({ briefings: after.briefings, alerts: after.alerts, total: after.total, stillDue: after.stillDue }).toEqual({
        briefings: expected.briefings,
        alerts: expected.alerts,
        total: expected.total,
        stillDue: 0,
      });
      expect(after.uniqueKeys).toBe(after.total);
      expect([after.untold, after.unbacked]).toEqual([0, 0]);
    }
    // At least some of the kills landed while a pass was running.
    expect(kills).toContain("killed");
    // Thirteen engine processes one after another, each starting Node and tsx: minutes on a busy 2-core machine.
  }, 300_000);
});
