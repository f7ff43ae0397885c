/**
 * A database with users whose briefings are due and whose rules will fire, and the engine run in
 * child processes on it: for the kill-and-restart test and the several-instances tests.
 */
import { spawn, type ChildProcessByStdio, type ChildProcessWithoutNullStreams } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { createApi } from "~/api/index.server";
import { episodeMessageKey } from "~/api/bot/alert-decision.server";
import { defaultSettings } from "~/api/db/settings-rows";

export const ENGINE_ENTRY = path.resolve("tests/support/engine-process.ts");

/** Where an engine's data lives: a data directory, and the PostgreSQL database when the tests run on one. */
export type EngineStore = { dataDir: string; databaseUrl?: string };

/**
 * The official-warning services' base for an engine: the warnings fake when a test gives one, else
 * the weather fake (on loopback too, it answers their paths with 404): never the real services.
 */
export const warningsEnv = (warningsUrl: string) => ({ NWS_ALERTS_URL: warningsUrl, METEOALARM_URL: warningsUrl });

export async function openApi({ dataDir, databaseUrl }: EngineStore, weatherUrl: string, now: string, warningsUrl = weatherUrl) {
  return createApi({
    production: true,
    dataDir,
    databaseUrl,
    openMeteoForecastUrl: weatherUrl,
    openMeteoAirQualityUrl: weatherUrl,
    openMeteoGeocodingUrl: weatherUrl,
    nwsAlertsUrl: warningsUrl,
    meteoAlarmUrl: warningsUrl,
    now: () => new Date(now),
    scheduler: false,
  });
}

/**
 * `users` users, each with 5 places, 2 briefings due at 05:00 and 4 rules that fire, written straight to the database.
 * `delivery`: the briefings' channels besides the inbox (EMAIL for the email briefings' tests).
 */
export async function seedEngineWork(store: EngineStore, weatherUrl: string, now: string, users: number, { delivery = "PUSH" } = {}) {
  const api = await openApi(store, weatherUrl, now);
  const created = "2026-05-01T00:00:00.000Z";
  await api.services.db.transaction().execute(async (trx) => {
    for (let u = 0; u < users; u++) {
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
            delivery,
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
            // Rules the engine has read before: not new (see summariseNewRules).
            watched_since: created,
          })),
        )
        .execute();
    }
  });
  await api.close();
}

/** What the engine has written: messages by key and content, open episodes, briefings still due, the shards. */
export async function engineOutcome(store: EngineStore, weatherUrl: string, now: string) {
  const api = await openApi(store, weatherUrl, now);
  try {
    const { db } = api.services;
    const messages = await db.selectFrom("messages").select(["kind", "dedupe_key", "user_id", "title", "body"]).execute();
    const episodes = await db.selectFrom("alert_episodes").selectAll().where("closed_at", "is", null).execute();
    const alertKeys = new Set(messages.filter((m) => m.kind === "ALERT").map((m) => m.dedupe_key));
    const episodeKeys = new Set(episodes.map((episode) => episodeMessageKey("alert", episode)));
    // The episodes a rule told in one pass go in one alert, keyed by one of them.
    const toldTogether = new Map<string, string[]>();
    for (const episode of episodes) {
      const pass = `${episode.user_id}|${episode.rule_key}|${episode.alerted_at}`;
      toldTogether.set(pass, [...(toldTogether.get(pass) ?? []), episodeMessageKey("alert", episode)]);
    }
    const due = await db.selectFrom("briefings").select("id").where("next_run_at", "<=", now).execute();
    const shards = await db.selectFrom("engine_shards").selectAll().orderBy("shard").execute();
    return {
      briefings: messages.filter((m) => m.kind === "BRIEFING").length,
      alerts: messages.filter((m) => m.kind === "ALERT").length,
      uniqueKeys: new Set(messages.map((m) => m.dedupe_key)).size,
      total: messages.length,
      /** Every message as key and content, sorted: two runs that wrote the same have equal lists. */
      contents: messages.map((m) => `${m.dedupe_key}\n${m.kind}\n${m.user_id}\n${m.title}\n${m.body}`).sort(),
      episodes: episodes.length,
      /** Episodes opened in a pass that wrote no alert telling them (0: each alert was written with its episodes). */
      untold: [...toldTogether.values()].filter((keys) => !keys.some((key) => alertKeys.has(key))).length,
      /** Alerts that tell no open episode (0: each episode was written with its alert). */
      unbacked: [...alertKeys].filter((key) => !episodeKeys.has(key)).length,
      stillDue: due.length,
      shards,
    };
  } finally {
    await api.close();
  }
}

export type PassReport = { tick: number; shards: number[]; briefings: number; alerts: number; warnings: number; digests: number };

/**
 * An engine instance in its own process, sharing ticks with the others on its database: it says
 * "ready" once it is registered, runs a tick's pass when told, and reports each claim and pass.
 */
export function startEngineInstance(
  store: EngineStore,
  weatherUrl: string,
  now: string,
  /** `env`: more of its environment (TEST_SMTP_URL: it sends mail). */
  options: { id: string; leaseMs: number; warningsUrl?: string; env?: Record<string, string> },
) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", ENGINE_ENTRY, store.dataDir, weatherUrl, now, "--shared", options.id, String(options.leaseMs)],
    {
      stdio: ["pipe", "pipe", "inherit"],
      env: { ...process.env, DATABASE_URL: store.databaseUrl ?? "", ...warningsEnv(options.warningsUrl ?? weatherUrl), ...options.env },
    },
  );
  const driven = driveInstance(child, options.id);
  return { ...driven, ready: () => driven.until(() => driven.lines.includes("ready"), "ready") };
}

/**
 * Talks to an instance's process (engine-commands.ts on its side): keeps its claims, passes
 * and lines, starts ticks, and waits for states of them (checked on every line and at exit).
 */
export function driveInstance(child: ChildProcessWithoutNullStreams | ChildProcessByStdio<Writable, Readable, null>, id: string) {
  const claims: number[][] = [];
  const passes: PassReport[] = [];
  const listeners = new Set<() => void>();
  const lines: string[] = [];
  let exited: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  createInterface({ input: child.stdout }).on("line", (line) => {
    const space = line.indexOf(" ");
    const word = space < 0 ? line : line.slice(0, space);
    const json = line.slice(space + 1);
    if (word === "claimed") claims.push(JSON.parse(json) as number[]);
    else if (word === "passed") passes.push(JSON.parse(json) as PassReport);
    lines.push(line);
    for (const listener of listeners) listener();
  });
  child.on("exit", (code, signal) => {
    exited = { code, signal };
    for (const listener of listeners) listener();
  });
  /** Resolves when `condition` holds (checked on every line and at exit); fails if the process ends first. */
  function until(condition: () => boolean, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (condition()) {
          listeners.delete(check);
          resolve();
        } else if (exited) {
          listeners.delete(check);
          reject(new Error(`instance ${id} exited (${exited.code ?? exited.signal}) before ${what}: ${lines.join(" | ")}`));
        }
      };
      listeners.add(check);
      check();
    });
  }
  return {
    id,
    claims,
    passes,
    lines,
    until,
    /** Starts the pass of `tick`; `passed(tick)` waits for its report. */
    tick(tick: number) {
      child.stdin.write(`tick ${tick}\n`);
    },
    passed: async (tick: number) => {
      await until(() => passes.some((pass) => pass.tick === tick), `the pass of tick ${tick}`);
      return passes.find((pass) => pass.tick === tick)!;
    },
    claimedOnce: () => until(() => claims.length > 0, "a claim"),
    kill() {
      child.kill("SIGKILL");
      return until(() => exited !== null, "exit").catch(() => {});
    },
    async stop() {
      if (exited) return;
      child.stdin.end("exit\n");
      await until(() => exited !== null, "exit").catch(() => {});
    },
  };
}

export type EngineInstance = ReturnType<typeof startEngineInstance>;
