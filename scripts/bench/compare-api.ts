/**
 * The API benchmark's query against several production builds in alternating rounds, to
 * tell whether a change made the API slower: on a shared, loaded machine only builds
 * measured in turns see the same drift. Each round runs every build once, starting one
 * further along each time so no build always goes first; a build's figure per round is its
 * share of the round's first build ("ratio"), and the median and range of those shares are
 * what to compare.
 *
 *   npx tsx scripts/bench/compare-api.ts [--rounds 30] [--seconds 1] [--baseline] [--profile DIR] \
 *     before=/path/to/old/build/server/index.js after=build/server/index.js [quiet=build/server/index.js,LOG_LEVEL=warn]
 *
 * Beside throughput it prints each server's CPU time per request (user + system, from
 * /proc, summed over every round): a build's own cost, which other processes on the
 * machine disturb far less than its throughput.
 *
 * `--baseline` adds the bare graphql-yoga hello-world as one more contestant (the figure
 * `npm run bench` prints is the API's share of it). `--profile DIR` runs each build with
 * `--cpu-prof`, writing its profile into DIR/<label>/ when it stops (see cpu-profile.ts).
 */
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { startAppServer, type AppServer } from "../../e2e/support/app-server";
import { startFakeOpenMeteo } from "../../tests/fakes/open-meteo";
import { startQuietWarnings } from "./warning-services";
import { QUERY, signUpWithPlaces, startHelloYoga } from "./api";
import { runLoad, type LoadResult } from "./load";
import { median } from "./median";

const CONNECTIONS = 50;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: "string", default: "30" },
    seconds: { type: "string", default: "1" },
    baseline: { type: "boolean", default: false },
    profile: { type: "string" },
  },
});
const rounds = Number(values.rounds);
const durationMs = Number(values.seconds) * 1000;
// label=path/to/build/server/index.js, optionally followed by ,NAME=value settings of its environment (",LOG_LEVEL=warn").
const builds = positionals.map((arg) => {
  const at = arg.indexOf("=");
  if (at < 1) throw new Error(`Expected label=path/to/build/server/index.js[,NAME=value…], got ${arg}`);
  const [entry, ...settings] = arg.slice(at + 1).split(",");
  const env = Object.fromEntries(
    settings.map((setting) => [setting.slice(0, setting.indexOf("=")), setting.slice(setting.indexOf("=") + 1)]),
  );
  return { label: arg.slice(0, at), entry: path.resolve(entry!), env };
});
if (builds.length === 0) throw new Error("Name at least one build: label=path/to/build/server/index.js");

type Contestant = { label: string; pid: number; load: Parameters<typeof runLoad>[0] };

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU seconds a process has used so far: in user mode (its JavaScript, mostly), and in all (with the kernel's, its sockets). */
function cpuSeconds(pid: number): { user: number; all: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields 14 and 15 of stat(5) (utime, stime), counted from the state (field 3) here.
  const user = Number(fields[11]) / TICKS_PER_SECOND;
  return { user, all: user + Number(fields[12]) / TICKS_PER_SECOND };
}

const weather = await startFakeOpenMeteo();
const warnings = await startQuietWarnings();
const servers: AppServer[] = [];
const stops: Array<() => unknown> = [];
try {
  const contestants: Contestant[] = [];
  for (const { label, entry, env: own } of builds) {
    const env: Record<string, string> = {
      TEST_HOOKS: "0",
      OPEN_METEO_FORECAST_URL: weather.url,
      OPEN_METEO_GEOCODING_URL: weather.url,
      ...warnings.env,
      ...own,
    };
    const nodeArgs: string[] = [];
    if (values.profile) {
      const dir = path.resolve(values.profile, label);
      mkdirSync(dir, { recursive: true });
      nodeArgs.push("--cpu-prof", `--cpu-prof-dir=${dir}`);
    }
    const server = await startAppServer(env, { entry, nodeArgs });
    servers.push(server);
    const url = `${server.baseURL}/graphql`;
    const token = await signUpWithPlaces(url);
    contestants.push({
      label,
      pid: server.pid,
      load: {
        url,
        body: JSON.stringify({ query: QUERY }),
        headers: { authorization: `Bearer ${token}` },
        connections: CONNECTIONS,
        durationMs,
      },
    });
  }
  if (values.baseline) {
    const hello = await startHelloYoga();
    stops.push(hello.stop);
    contestants.push({
      label: "yoga",
      pid: hello.pid,
      load: { url: hello.url, body: JSON.stringify({ query: "{ hello }" }), connections: CONNECTIONS, durationMs },
    });
  }
  for (const { load } of contestants) await runLoad({ ...load, durationMs: 1_000 }); // warm-up

  const samples = new Map<string, LoadResult[]>(contestants.map(({ label }) => [label, []]));
  /** CPU seconds per round. */
  const cpu = new Map<string, number[]>(contestants.map(({ label }) => [label, []]));
  /** User-mode CPU seconds per round. */
  const userCpu = new Map<string, number[]>(contestants.map(({ label }) => [label, []]));
  for (let round = 0; round < rounds; round++) {
    const order = contestants.map((_, i) => contestants[(i + round) % contestants.length]!);
    const line: string[] = [];
    for (const { label, pid, load } of order) {
      const cpuBefore = cpuSeconds(pid);
      const result = await runLoad(load);
      const cpuAfter = cpuSeconds(pid);
      cpu.get(label)!.push(cpuAfter.all - cpuBefore.all);
      userCpu.get(label)!.push(cpuAfter.user - cpuBefore.user);
      if (result.errors > 0) throw new Error(`${label}: ${result.errors} errors in round ${round + 1}`);
      samples.get(label)!.push(result);
      line.push(`${label} ${result.rps.toFixed(0)}`);
    }
    console.log(`round ${round + 1}: ${line.join(", ")} req/s`);
  }

  const reference = contestants[0]!.label;
  console.log(`\nreq/s (median, range) and each build's share of ${reference} in the same round (median, range):`);
  for (const { label } of contestants) {
    const rps = samples.get(label)!.map((sample) => sample.rps);
    const shares = rps.map((value, round) => value / samples.get(reference)![round]!.rps);
    const range = (list: number[], digits: number, scale = 1) =>
      `${(Math.min(...list) * scale).toFixed(digits)}–${(Math.max(...list) * scale).toFixed(digits)}`;
    console.log(
      `  ${label.padEnd(12)} ${median(rps).toFixed(0).padStart(6)} req/s (${range(rps, 0)})   ` +
        `${(median(shares) * 100).toFixed(1).padStart(6)} % of ${reference} (${range(shares, 1, 100)} %)`,
    );
  }
  // Per round too, though /proc counts in hundredths of a second: a 1-second round is read to about 1 %.
  const sum = (list: number[]) => list.reduce((total, value) => total + value, 0);
  const requestsOf = (label: string) => sum(samples.get(label)!.map((sample) => sample.requests));
  for (const [what, seconds] of [
    ["CPU time (user + system)", cpu],
    ["user-mode CPU time", userCpu],
  ] as const) {
    console.log(
      `\n${what} of each server per request: over every round; share of ${reference}'s, over every round and per round (median, range):`,
    );
    const perRequest = (label: string) => sum(seconds.get(label)!) / requestsOf(label);
    for (const { label } of contestants) {
      const perRound = seconds.get(label)!.map((own, round) => {
        const theirs = seconds.get(reference)![round]! / samples.get(reference)![round]!.requests;
        return own / samples.get(label)![round]!.requests / theirs;
      });
      console.log(
        `  ${label.padEnd(12)} ${(perRequest(label) * 1e6).toFixed(0).padStart(6)} µs of ${requestsOf(label)} requests   ` +
          `${((perRequest(label) / perRequest(reference)) * 100).toFixed(1).padStart(6)} % of ${reference}; per round ` +
          `${(median(perRound) * 100).toFixed(1)} % (${(Math.min(...perRound) * 100).toFixed(1)}–${(Math.max(...perRound) * 100).toFixed(1)} %)`,
      );
    }
  }
  if (values.baseline) {
    console.log("\neach build's share of bare yoga in the same round (median, range):");
    for (const { label } of contestants.slice(0, -1)) {
      const shares = samples.get(label)!.map((sample, round) => sample.rps / samples.get("yoga")![round]!.rps);
      console.log(
        `  ${label.padEnd(12)} ${(median(shares) * 100).toFixed(1).padStart(6)} % (${(Math.min(...shares) * 100).toFixed(1)}–${(Math.max(...shares) * 100).toFixed(1)} %)`,
      );
    }
  }
} finally {
  for (const stop of stops) stop();
  await Promise.all(servers.map((server) => server.stop()));
  await weather.close();
  await warnings.close();
}
