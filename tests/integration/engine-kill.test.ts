import { spawn } from "node:child_process";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "~/api/index.server";
import { episodeMessageKey } from "~/api/bot/alerts.server";
import { defaultSettings } from "~/api/db/settings-rows";
import { startFakeOpenMeteo, type FakeOpenMeteo } from "../fakes/open-meteo";
import { copyTestDatabase, testDatabaseUrl } from "../support/test-database";

/*
 * The engine in a real process, killed with SIGKILL at several moments of a pass over
 * 40 briefings and 400 alert rules, then run again: every message is written exactly
 * once, and every alert has the state that goes with it.
 */
const NOW = "2026-06-01T05:00:30.000Z";
const USERS = 20;
const ENTRY = path.resolve("tests/support/engine-process.ts");

let weather: FakeOpenMeteo;
const dirs: string[] = [];
beforeAll(async () => {
  weather = await startFakeOpenMeteo({ now: () => new Date(NOW) });
});
afterAll(async () => {
  await weather.close();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A data directory, and in the PostgreSQL run the database that goes with it. */
type Store = { dataDir: string; databaseUrl: string | undefined };

async function freshDir() {
  const dir = await mkdtemp(path.join(tmpdir(), "weatherbot-kill-"));
  dirs.push(dir);
  return dir;
}

async function freshStore(): Promise<Store> {
  return { dataDir: await freshDir(), databaseUrl: await testDatabaseUrl() };
}

/** A copy of everything `from` holds: its data directory (SQLite's file is in it) and its PostgreSQL database. */
async function copyStore(from: Store): Promise<Store> {
  const dataDir = await freshDir();
  await cp(from.dataDir, dataDir, { recursive: true });
  return { dataDir, databaseUrl: from.databaseUrl && (await copyTestDatabase(from.databaseUrl)) };
}

/** Users with places, briefings due now and rules that will fire, written straight to the database. */
async function seed({ dataDir, databaseUrl }: Store) {
  const api = await createApi({
    production: true,
    dataDir,
    databaseUrl,
    openMeteoForecastUrl: weather.url,
    openMeteoGeocodingUrl: weather.url,
    now: () => new Date(NOW),
    scheduler: false,
  });
  const created = "2026-05-01T00:00:00.000Z";
  await api.services.db.transaction().execute(async (trx) => {
    for (let u = 0; u < USERS; u++) {
      const userId = randomUUID();
      await trx
        .insertInto("users")
        .values({ id: userId, email: `k${u}@kill.example`, password_hash: "-", created_at: created })
        .execute();
      await trx
        .insertInto("settings")
        .values(defaultSettings(userId, "EN_US", "UTC"))
        .execute();
      const placeIds: string[] = [];
      for (let p = 0; p < 5; p++) {
        const id = randomUUID();
        placeIds.push(id);
        await trx
          .insertInto("places")
          .values({
            id,
            user_id: userId,
            label: `P${p}`,
            name: `P${p}`,
            admin1: null,
            country_code: null,
            latitude: 10 + u,
            longitude: 5 * p,
            time_zone: "UTC",
            position: p,
            created_at: created,
          })
          .execute();
      }
      for (let b = 0; b < 2; b++) {
        const id = randomUUID();
        await trx
          .insertInto("briefings")
          .values({
            id,
            user_id: userId,
            name: `B${b}`,
            enabled: 1,
            period: "TODAY",
            time: "05:00",
            days: "MON,TUE,WED,THU,FRI,SAT,SUN",
            next_run_at: "2026-06-01T05:00:00.000Z",
            last_sent_at: null,
            created_at: created,
          })
          .execute();
        await trx
          .insertInto("briefing_places")
          .values(placeIds.map((placeId, position) => ({ briefing_id: id, place_id: placeId, position })))
          .execute();
      }
      await trx
        .insertInto("alert_rules")
        .values(
          Array.from({ length: 4 }, (_, r) => ({
            id: randomUUID(),
            user_id: userId,
            name: `R${r}`,
            enabled: 1,
            place_id: null,
            metric: "TEMPERATURE",
            comparator: "AT_LEAST",
            threshold: -50 + r,
            conditions: null,
            lookahead_hours: 24,
            active_days: "MON,TUE,WED,THU,FRI,SAT,SUN",
            active_from: null,
            active_to: null,
            urgent: 0,
            notify_all_clear: 0,
            cooldown_hours: 6,
            snoozed_until: null,
            created_at: created,
          })),
        )
        .execute();
    }
  });
  await api.close();
}

/** Runs one pass in a child; `killAfterMs` kills it with SIGKILL that long after it is ready. */
function pass({ dataDir, databaseUrl }: Store, killAfterMs?: number): Promise<"done" | "killed"> {
  return new Promise((resolve, reject) => {
    const args = [ENTRY, dataDir, weather.url, NOW, ...(databaseUrl ? [databaseUrl] : [])];
    const child = spawn(process.execPath, ["--import", "tsx", ...args], { stdio: ["ignore", "pipe", "inherit"] });
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

async function outcome({ dataDir, databaseUrl }: Store) {
  const api = await createApi({
    production: true,
    dataDir,
    databaseUrl,
    openMeteoForecastUrl: weather.url,
    openMeteoGeocodingUrl: weather.url,
    now: () => new Date(NOW),
    scheduler: false,
  });
  try {
    const { db } = api.services;
    const messages = await db.selectFrom("messages").select(["kind", "dedupe_key"]).execute();
    const episodes = await db.selectFrom("alert_episodes").selectAll().where("closed_at", "is", null).execute();
    const due = await db.selectFrom("briefings").select("id").where("next_run_at", "<=", NOW).execute();
    return {
      briefings: messages.filter((m) => m.kind === "BRIEFING").length,
      alerts: messages.filter((m) => m.kind === "ALERT").length,
      uniqueKeys: new Set(messages.map((m) => m.dedupe_key)).size,
      total: messages.length,
      triggered: new Set(episodes.map((episode) => episodeMessageKey("alert", episode))),
      alertKeys: new Set(messages.filter((m) => m.kind === "ALERT").map((m) => m.dedupe_key)),
      stillDue: due.length,
    };
  } finally {
    await api.close();
  }
}

describe("the engine killed mid-pass", () => {
  it("writes every message exactly once after a restart, with the state that goes with each alert", async () => {
    const template = await freshStore();
    await seed(template);

    // What one pass that nobody interrupts writes.
    const clean = await copyStore(template);
    expect(await pass(clean)).toBe("done");
    const expected = await outcome(clean);
    expect(expected.briefings).toBe(USERS * 2);
    expect(expected.alerts).toBeGreaterThan(USERS * 4);

    const kills: string[] = [];
    for (const delay of [0, 40, 120, 300]) {
      const dir = await copyStore(template);
      kills.push(await pass(dir, delay));
      // Killed twice in a row, then a pass that finishes.
      kills.push(await pass(dir, delay + 20));
      expect(await pass(dir)).toBe("done");
      const after = await outcome(dir);
      expect({ briefings: after.briefings, alerts: after.alerts, total: after.total, stillDue: after.stillDue }).toEqual({
        briefings: expected.briefings,
        alerts: expected.alerts,
        total: expected.total,
        stillDue: 0,
      });
      expect(after.uniqueKeys).toBe(after.total);
      expect(after.triggered).toEqual(after.alertKeys);
    }
    // At least some of the kills landed while a pass was running.
    expect(kills).toContain("killed");
  }, 120_000);
});
