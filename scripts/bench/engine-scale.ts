/**
 * The engine at scale (issue 34, decision 026): `npx tsx scripts/bench/engine-scale.ts [--rules N] [--db SQLite|PostgreSQL]
 * [--minutes M]`, and a section of `npm run bench`. Generates users with one place and 10 rules each (PostgreSQL:
 * 1,000,000 rules by default, SQLite 10× fewer), evaluates them all once, then simulates M minutes (30) of 30-second
 * ticks while the fake changes 1/15 of the places' forecasts a minute, and prints the CPU per simulated minute (engine
 * process, and the PostgreSQL server's), the time from a forecast read to its alert in the inbox, ticks with nothing
 * to do, upstream calls per watched place and hour, EXPLAIN of the tick's queries on PostgreSQL, and today's engine
 * (every rule woken every tick) beside the new one at 10,000 rules in the same run.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { sql } from "kysely";
import { freePort, ROOT } from "../../e2e/support/app-server";
import { WAKE_NOW } from "../../app/api/bot/rule-wakes.server";
import { nextRefreshAt, recordFeeds } from "../../app/api/bot/watched-feeds.server";
import { createApi, type Api } from "../../app/api/index.server";
import { startBenchDatabases, type BenchDatabaseKind, type BenchDatabases } from "./databases";
import { explainHotPath } from "./engine-explain";
import { cpuSeconds } from "./process-cpu";
import { resetStatementCosts, statementCosts } from "./statement-costs";
import { RULES_PER_USER, generateScaleData } from "./scale-data";

const START = Date.parse("2026-06-01T06:00:00Z");
const TICK_MS = 30_000;

/** The scale fake in its own process, its clock set by the simulation. */
async function startScaleWeather({ still = false } = {}) {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts/bench/scale-weather.ts")], {
    env: { ...process.env, FAKE_WEATHER_PORT: String(port), SCALE_START: new Date(START).toISOString(), SCALE_STATIC: still ? "1" : "0" },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => String((await lines.next()).value);
  await next();
  return {
    url: `http://127.0.0.1:${port}`,
    async at(ms: number) {
      child.stdin!.write(`at ${ms}\n`);
      await next();
    },
    async calls() {
      child.stdin!.write("calls\n");
      const [requests, coordinates] = (await next()).slice("calls ".length).split(" ").map(Number);
      return { requests: requests!, coordinates: coordinates! };
    },
    close: () => new Promise((resolve) => child.once("exit", resolve).stdin!.end()),
  };
}

/** CPU seconds of the PostgreSQL server: the postmaster, the backends it reaped, and those running. */
async function postgresCpu(api: Api): Promise<() => number> {
  const { rows } = await sql<{ setting: string }>`select setting from pg_settings where name = 'data_directory'`.execute(api.services.db);
  const postmaster = Number(readFileSync(path.join(rows[0]!.setting, "postmaster.pid"), "utf8").split("\n")[0]);
  return () => {
    const stat = readFileSync(`/proc/${postmaster}/stat`, "utf8")
      .slice(readFileSync(`/proc/${postmaster}/stat`, "utf8").lastIndexOf(")") + 2)
      .split(" ");
    let seconds = (Number(stat[11]) + Number(stat[12]) + Number(stat[13]) + Number(stat[14])) / 100;
    for (const pid of readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, "utf8").trim().split(/\s+/).filter(Boolean)) {
      try {
        seconds += cpuSeconds(Number(pid));
      } catch {
        // Ended between the listing and the read: its time is in the postmaster's reaped children now.
      }
    }
    return seconds;
  };
}

const ownCpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

/** The API on a fresh database, its clock the simulation's, the engine driven by hand; rule evaluations counted. */
async function openScaleApi(databases: BenchDatabases, kind: BenchDatabaseKind, weatherUrl: string, clock: { now: number }) {
  const store = await databases.fresh(kind);
  const api = await createApi({
    production: true,
    dataDir: store.dataDir,
    databaseUrl: store.databaseUrl,
    openMeteoForecastUrl: weatherUrl,
    openMeteoAirQualityUrl: weatherUrl,
    openMeteoGeocodingUrl: weatherUrl,
    nwsAlertsUrl: weatherUrl,
    meteoAlarmUrl: weatherUrl,
    now: () => new Date(clock.now),
    scheduler: false,
    // As the server runs it (ENGINE_REFRESH_SPREAD's default): the watched forecasts read again spread over the cycle.
    engine: { refreshSpread: true },
  });
  // The engine calls the service's method as it is when it runs: wrapped here to count what each pass evaluated.
  const evaluations = { count: 0, ms: 0 };
  const alerts = api.services.alerts;
  const evaluateAll = alerts.evaluateAll.bind(alerts);
  alerts.evaluateAll = async (scope) => {
    const started = performance.now();
    const result = await evaluateAll(scope);
    evaluations.ms += performance.now() - started;
    evaluations.count += result.evaluated.length;
    return result;
  };
  const dbCpu = kind === "PostgreSQL" ? await postgresCpu(api) : () => 0;
  // When each alert reached the inbox (published once its transaction committed), to time it from its pass's start.
  const alertsPublished: number[] = [];
  api.services.inbox.onPublish((row) => {
    if (row.kind === "ALERT") alertsPublished.push(performance.now());
  });
  return { api, store, evaluations, dbCpu, alertsPublished };
}

/** One engine pass, measured: wall ms, CPU of this process and of the database, rules evaluated, messages written. */
async function measuredPass(opened: Awaited<ReturnType<typeof openScaleApi>>, tick: number) {
  const before = {
    cpu: ownCpu(),
    db: opened.dbCpu(),
    evaluated: opened.evaluations.count,
    rulesMs: opened.evaluations.ms,
    at: performance.now(),
  };
  opened.alertsPublished.length = 0;
  const result = await opened.api.engine.pass(tick);
  return {
    /** From the pass's start (its first step reads the feeds due) to each of its alerts in the inbox, in ms. */
    latencies: opened.alertsPublished.map((at) => at - before.at),
    ms: performance.now() - before.at,
    cpu: ownCpu() - before.cpu,
    dbCpu: opened.dbCpu() - before.db,
    evaluated: opened.evaluations.count - before.evaluated,
    /** The rules' part of the pass (the alert service's), in ms: the rest is briefings, warnings and digests. */
    rulesMs: opened.evaluations.ms - before.rulesMs,
    alerts: result.alerts,
  };
}

/**
 * The state a first full evaluation leaves, written directly (`--steady`, for sizes whose first evaluation would take
 * longer than the run may): every rule asleep (none of them crosses before the fake changes), every place's forecast
 * watched, each in its phase of the cycle. The first refresh of each feed then finds it changed and wakes its rules.
 */
async function steadyState(api: Api) {
  const { db } = api.services;
  await sql`update alert_rules set next_wake_at = null`.execute(db);
  const ttlMs = api.services.forecasts.ttlMs;
  for (let offset = 0; ; offset += 20_000) {
    const places = await db.selectFrom("places").select(["latitude", "longitude"]).orderBy("id").limit(20_000).offset(offset).execute();
    if (places.length === 0) return;
    const readings = places.map((place) => ({
      coordinate: place,
      kind: "forecast" as const,
      hash: "steady",
      nextRefreshAt: nextRefreshAt(place, START, ttlMs),
    }));
    await recordFeeds(db, readings, true);
  }
}

export async function benchEngineScale(
  databases: BenchDatabases,
  kind: BenchDatabaseKind,
  rules: number,
  minutes: number,
  { steady = false, statements = false } = {},
) {
  const users = Math.ceil(rules / RULES_PER_USER);
  const clock = { now: START };
  const weather = await startScaleWeather();
  const opened = await openScaleApi(databases, kind, weather.url, clock);
  const { api } = opened;
  try {
    const generating = performance.now();
    await generateScaleData(api.services.db, kind === "PostgreSQL" ? "postgres" : "sqlite", users);
    const generatedMs = performance.now() - generating;
    let tick = 1;
    const first = steady ? null : await measuredPass(opened, tick++);
    if (steady) await steadyState(api);
    // A deployment's steady state is vacuumed: the seed's million fresh rows (and the first evaluation's rewrites)
    // would otherwise have autovacuum at work in the measured minutes, and index-only scans visit every heap page.
    if (kind === "PostgreSQL") await sql`vacuum analyze`.execute(api.services.db);
    if (statements) await resetStatementCosts(api.services.db);
    const callsBefore = await weather.calls();
    const ticks: Array<Awaited<ReturnType<typeof measuredPass>>> = [];
    for (let at = START + TICK_MS; at <= START + minutes * 60_000; at += TICK_MS) {
      clock.now = at;
      await weather.at(at);
      ticks.push(await measuredPass(opened, tick++));
    }
    const callsAfter = await weather.calls();
    const costs = statements ? await statementCosts(api.services.db, minutes) : null;
    // Ticks with nothing to do: the clock moved by a millisecond, nothing due, no feed to read, no rule woken.
    const idle: Array<Awaited<ReturnType<typeof measuredPass>>> = [];
    for (let run = 0; run < 10; run++) {
      clock.now += 1;
      idle.push(await measuredPass(opened, tick++));
    }
    const explain = kind === "PostgreSQL" ? await explainHotPath(api.services.db, new Date(clock.now).toISOString()) : null;
    // An alert is written in the pass that read the forecast showing it (its feed's refresh is the pass's first step).
    const latencies = ticks.flatMap((pass) => pass.latencies);
    const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
    return {
      kind,
      rules: users * RULES_PER_USER,
      places: users,
      generatedMs,
      first,
      cpuPerMinute: sum(ticks.map((pass) => pass.cpu)) / minutes,
      dbCpuPerMinute: sum(ticks.map((pass) => pass.dbCpu)) / minutes,
      evaluationsPerMinute: sum(ticks.map((pass) => pass.evaluated)) / minutes,
      alerts: sum(ticks.map((pass) => pass.alerts)),
      latencyP50: percentile(latencies, 50),
      latencyP99: percentile(latencies, 99),
      idleMs: percentile(
        idle.map((pass) => pass.ms),
        50,
      ),
      idleRulesMs: percentile(
        idle.map((pass) => pass.rulesMs),
        50,
      ),
      idleCpuMs: percentile(
        idle.map((pass) => (pass.cpu + pass.dbCpu) * 1000),
        50,
      ),
      callsPerPlaceHour: (callsAfter.requests - callsBefore.requests) / users / (minutes / 60),
      readsPerPlaceHour: callsAfter.coordinates / users / (minutes / 60),
      explain,
      costs,
    };
  } finally {
    await api.close();
    await opened.store.remove();
    await weather.close();
  }
}

/** Today's engine (every rule woken every tick, as every rule was evaluated every tick) beside the new one, warm. */
export async function benchTodayBeside(databases: BenchDatabases, kind: BenchDatabaseKind, rules = 10_000) {
  const clock = { now: START };
  const weather = await startScaleWeather();
  const opened = await openScaleApi(databases, kind, weather.url, clock);
  try {
    await generateScaleData(opened.api.services.db, kind === "PostgreSQL" ? "postgres" : "sqlite", Math.ceil(rules / RULES_PER_USER));
    let tick = 1;
    await measuredPass(opened, tick++);
    const today: number[] = [];
    const changeDriven: number[] = [];
    for (let run = 0; run < 3; run++) {
      clock.now += 1;
      await sql`update alert_rules set next_wake_at = ${WAKE_NOW}`.execute(opened.api.services.db);
      today.push((await measuredPass(opened, tick++)).ms);
      clock.now += 1;
      changeDriven.push((await measuredPass(opened, tick++)).ms);
    }
    return { today: percentile(today, 50), changeDriven: percentile(changeDriven, 50) };
  } finally {
    await opened.api.close();
    await opened.store.remove();
    await weather.close();
  }
}

/**
 * Issue 34's black-box case: 200 users × 10 places × 10 rules on all their places (20,000 rule-place pairs) under a
 * forecast that never changes: the engine's CPU a minute with the rules, less the same without any rule.
 */
export async function benchUnchangedRules(databases: BenchDatabases, kind: BenchDatabaseKind, minutes = 10) {
  const perMinute = async (withRules: boolean) => {
    const clock = { now: START };
    const weather = await startScaleWeather({ still: true });
    const opened = await openScaleApi(databases, kind, weather.url, clock);
    try {
      await generateScaleData(opened.api.services.db, kind === "PostgreSQL" ? "postgres" : "sqlite", 200, {
        placesPerUser: 10,
        everyPlace: true,
      });
      if (!withRules) await opened.api.services.db.deleteFrom("alert_rules").execute();
      let tick = 1;
      await measuredPass(opened, tick++);
      let cpu = 0;
      for (let at = START + TICK_MS; at <= START + minutes * 60_000; at += TICK_MS) {
        clock.now = at;
        await weather.at(at);
        const pass = await measuredPass(opened, tick++);
        cpu += pass.cpu + pass.dbCpu;
      }
      return cpu / minutes;
    } finally {
      await opened.api.close();
      await opened.store.remove();
      await weather.close();
    }
  };
  const withRules = await perMinute(true);
  const without = await perMinute(false);
  return { withRules, without, extra: withRules - without };
}

const verdict = (met: boolean) => (met ? "met" : "NOT MET");

export function scaleRows(
  scale: Awaited<ReturnType<typeof benchEngineScale>>,
  beside?: Awaited<ReturnType<typeof benchTodayBeside>>,
  unchanged?: Awaited<ReturnType<typeof benchUnchangedRules>>,
) {
  const { kind } = scale;
  const n = (value: number) => value.toLocaleString("en-US", { maximumFractionDigits: 0 });
  return [
    [`scale on ${kind}: data`, `${n(scale.rules)} rules`, `${n(scale.places)} places and users, generated in ${n(scale.generatedMs)} ms`],
    scale.first
      ? [
          `scale on ${kind}: first full evaluation`,
          `${n(scale.first.ms)} ms`,
          `CPU ${scale.first.cpu.toFixed(1)} s engine, ${scale.first.dbCpu.toFixed(1)} s database`,
        ]
      : [`scale on ${kind}: first full evaluation`, "not run", "--steady: the state it leaves written directly"],
    [
      `scale on ${kind}: CPU per simulated minute`,
      `${(scale.cpuPerMinute + scale.dbCpuPerMinute).toFixed(2)} s`,
      `engine ${scale.cpuPerMinute.toFixed(2)} s + database ${scale.dbCpuPerMinute.toFixed(2)} s = ${(((scale.cpuPerMinute + scale.dbCpuPerMinute) / 60) * 100).toFixed(1)} % of a core; ${n(scale.evaluationsPerMinute)} rule evaluations a minute; budget ≤ 15 s (25 %): ${verdict(scale.cpuPerMinute + scale.dbCpuPerMinute <= 15)}`,
    ],
    [
      `scale on ${kind}: forecast read → inbox`,
      `${n(scale.latencyP50)} ms`,
      `p50, from the start of the pass that read it; p99 ${n(scale.latencyP99)} ms over ${scale.alerts} alerts; budget p99 ≤ 60 s: ${verdict(scale.latencyP99 <= 60_000)}`,
    ],
    [
      `scale on ${kind}: tick with nothing to do`,
      `${scale.idleCpuMs.toFixed(1)} ms CPU`,
      `engine + database, median of 10; ${scale.idleMs.toFixed(1)} ms wall, the rules' part ${scale.idleRulesMs.toFixed(1)} ms; budget ≤ 50 ms: ${verdict(scale.idleCpuMs <= 50)}`,
    ],
    [
      `scale on ${kind}: upstream per watched place`,
      `${scale.readsPerPlaceHour.toFixed(2)}/h`,
      `times each watched place is asked for upstream an hour; ${scale.callsPerPlaceHour.toFixed(3)} requests (up to 50 places each) per place and hour`,
    ],
    ...(beside
      ? [
          [
            `scale on ${kind}: 10,000 rules, warm tick`,
            `${n(beside.changeDriven)} ms`,
            `today's engine (every rule every tick) ${n(beside.today)} ms: ${((beside.changeDriven / beside.today) * 100).toFixed(1)} %; budget ≤ 10 %: ${verdict(beside.changeDriven / beside.today <= 0.1)}`,
          ],
        ]
      : []),
    ...(unchanged
      ? [
          [
            `scale on ${kind}: 20,000 unchanged rule-places`,
            `${unchanged.extra.toFixed(3)} s/min`,
            `the rules' extra CPU a minute, engine and database (${unchanged.withRules.toFixed(3)} s with them, ${unchanged.without.toFixed(3)} s without); budget ≤ 0.3 s: ${verdict(unchanged.extra <= 0.3)}`,
          ],
        ]
      : []),
    ...(scale.explain
      ? [
          [
            `scale on ${kind}: EXPLAIN hot path`,
            scale.explain.seqScans === 0 ? "no seq scan" : `${scale.explain.seqScans} seq scans`,
            scale.explain.summary,
          ],
        ]
      : []),
  ] as Array<[string, string, string]>;
}

/**
 * PostgreSQL's own cache as a deployment of this size would have it (README, Databases): the rules table and its
 * indexes in it. At the default 128 MB each write of a rule's wake read its pages back from the operating system.
 */
export const SCALE_SHARED_BUFFERS = "1GB";

const flag = (name: string) => {
  const index = process.argv.indexOf(`--${name}`);
  return index < 0 ? undefined : process.argv[index + 1];
};

if (process.argv[1]?.endsWith("engine-scale.ts")) {
  const kinds = (flag("db") ? [flag("db")] : ["PostgreSQL", "SQLite"]) as BenchDatabaseKind[];
  const minutes = Number(flag("minutes") ?? 30);
  const statements = process.argv.includes("--statements");
  const sharedBuffers = flag("shared-buffers") ?? SCALE_SHARED_BUFFERS;
  const databases = await startBenchDatabases({ statements, settings: [`shared_buffers=${sharedBuffers}`] });
  try {
    for (const kind of kinds) {
      const rules = Number(flag("rules") ?? (kind === "PostgreSQL" ? 1_000_000 : 100_000));
      console.log(
        `Engine at scale on ${kind}: ${rules.toLocaleString("en-US")} rules, ${minutes} simulated minutes… (load average ${loadavg()[0]!.toFixed(2)})`,
      );
      const scale = await benchEngineScale(databases, kind, rules, minutes, { steady: process.argv.includes("--steady"), statements });
      // --scale-only: the big run alone, while iterating on it.
      const only = process.argv.includes("--scale-only");
      const beside = only ? undefined : await benchTodayBeside(databases, kind);
      const unchanged = only ? undefined : await benchUnchangedRules(databases, kind);
      const [load] = loadavg();
      console.log(`load average (1 min) at the end: ${load!.toFixed(2)} on ${availableParallelism()} cores`);
      for (const [name, value, note] of scaleRows(scale, beside, unchanged))
        console.log(`${name.padEnd(44)} ${value.padStart(14)}  ${note}`);
      if (scale.explain && process.argv.includes("--plans")) console.log(scale.explain.plans);
      if (scale.costs) console.log(`statements by database time (--statements):\n${scale.costs}`);
    }
  } finally {
    await databases.stop();
  }
}
