/**
 * Where issue 35's blocking time goes: Lighthouse's mobile run of `/` (signed-in with five places, or a visitor) with
 * V8's sampler in its trace. Prints FCP, TTI and TBT (simulated; FCP also observed), Lighthouse's long tasks, and for
 * every top-level task of the page's main thread of at least `--min` ms as observed (× 4 on Lighthouse's phone) what
 * ran in it: trace events and sampled functions, by original source where the build has source maps
 * (`build.sourcemap: "hidden"` for a probing build; never for a build that is served).
 *
 *   npx tsx scripts/bench/tbt-probe.ts [--page signed-in|visitor] [--min 10] [--runs 1] [--save trace.json]
 *   npx tsx scripts/bench/tbt-probe.ts --load trace.json --fcp OBSERVED_FCP_MS   (a saved trace again)
 *
 * TOPN=n widens the functions listed per task.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { SourceMapConsumer } from "source-map-js";
import { chromium } from "@playwright/test";
import lighthouse from "lighthouse";
import { SESSION_COOKIE } from "../../app/shared/session-cookie";
import { freePort, startAppServer } from "../../e2e/support/app-server";
import { CHROMIUM_ARGS, CHROMIUM_ENV, CHROMIUM_PATH } from "../../e2e/support/chromium";
import { startFakeOpenMeteo } from "../../tests/fakes/open-meteo";
import { userWithPlaces } from "./blocking-time";
import { startQuietWarnings } from "./warning-services";

const { values } = parseArgs({
  options: {
    page: { type: "string", default: "signed-in" },
    min: { type: "string", default: "10" },
    runs: { type: "string", default: "1" },
    save: { type: "string" },
    url: { type: "string" },
    load: { type: "string" },
    fcp: { type: "string" },
  },
});
const MIN = Number(values.min);

// Trace event arguments differ per event name: read as loosely as the trace format is.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;
type TraceEvent = { name: string; cat: string; ph: string; ts: number; dur?: number; pid: number; tid: number; args?: Loose; id?: string };
type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; parent?: number };

const consumers = new Map<string, SourceMapConsumer | null>();
function original(url: string, line: number, column: number) {
  if (!url.startsWith("/assets/")) return null;
  if (!consumers.has(url)) {
    const file = `build/client${url}.map`;
    consumers.set(url, existsSync(file) ? new SourceMapConsumer(JSON.parse(readFileSync(file, "utf8"))) : null);
  }
  const consumer = consumers.get(url);
  if (!consumer || line < 0) return null;
  const pos = consumer.originalPositionFor({ line: line + 1, column });
  if (!pos.source) return null;
  return { name: pos.name, source: pos.source.replace(/^.*node_modules\//, "").replace(/^(\.\.\/)+/, ""), line: pos.line };
}

function analyse(events: TraceEvent[], observedFcpTs: number) {
  const threadNames = events.filter((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain");
  // The main thread with the most RunTask time.
  let best: { pid: number; tid: number; total: number } | null = null;
  for (const t of threadNames) {
    const total = events
      .filter((e) => e.pid === t.pid && e.tid === t.tid && e.name === "RunTask" && e.ph === "X")
      .reduce((s, e) => s + (e.dur ?? 0), 0);
    if (!best || total > best.total) best = { pid: t.pid, tid: t.tid, total };
  }
  if (!best) return;
  const mine = events.filter((e) => e.pid === best!.pid && e.tid === best!.tid).sort((a, b) => a.ts - b.ts);
  // Samples.
  const nodes = new Map<number, Node>();
  const samples: Array<{ ts: number; node: number }> = [];
  const profileEvents = events.filter((e) => e.pid === best!.pid && (e.name === "Profile" || e.name === "ProfileChunk"));
  let ts = 0;
  for (const e of profileEvents.sort((a, b) => a.ts - b.ts)) {
    if (e.name === "Profile") {
      ts = e.args.data.startTime;
      continue;
    }
    const cp = e.args?.data?.cpuProfile;
    for (const n of cp?.nodes ?? []) nodes.set(n.id, n);
    const deltas: number[] = e.args?.data?.timeDeltas ?? [];
    (cp?.samples ?? []).forEach((node: number, i: number) => {
      ts += deltas[i] ?? 0;
      samples.push({ ts, node });
    });
  }
  const name = (id: number) => {
    const n = nodes.get(id);
    if (!n) return "?";
    const url = (n.callFrame.url ?? "").replace(/^https?:\/\/[^/]+/, "");
    const mapped = original(url, n.callFrame.lineNumber, n.callFrame.columnNumber);
    if (mapped) return `${mapped.name ?? n.callFrame.functionName ?? "(anon)"} ${mapped.source}:${mapped.line}`;
    return `${n.callFrame.functionName || "(anon)"} ${url}:${n.callFrame.lineNumber + 1}:${n.callFrame.columnNumber + 1}`;
  };
  const stack = (id: number) => {
    const out: number[] = [];
    for (let cur: number | undefined = id; cur !== undefined; cur = nodes.get(cur)?.parent) out.push(cur);
    return out;
  };
  const tasks = mine.filter((e) => e.name === "RunTask" && e.ph === "X" && (e.dur ?? 0) >= MIN * 1000);
  for (const task of tasks) {
    const end = task.ts + task.dur!;
    const inside = mine.filter((e) => e !== task && e.ph === "X" && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end);
    const byName = new Map<string, number>();
    for (const e of inside) {
      let label = e.name;
      if (e.name === "EvaluateScript" || e.name === "v8.compile" || e.name === "FunctionCall")
        label += ` ${String(e.args?.data?.url ?? "").replace(/^https?:\/\/[^/]+/, "")}`;
      if (e.name === "TimerFire" || e.name === "FireAnimationFrame" || e.name === "EventDispatch") label += ` ${e.args?.data?.type ?? ""}`;
      byName.set(label, (byName.get(label) ?? 0) + (e.dur ?? 0) / 1000);
    }
    const top = [...byName].sort((a, b) => b[1] - a[1]).slice(0, 8);
    console.log(
      `TASK at ${((task.ts - observedFcpTs) / 1000).toFixed(0)} ms from FCP, ${(task.dur! / 1000).toFixed(1)} ms: ${top.map(([k, v]) => `${k} ${v.toFixed(1)}`).join(" | ")}`,
    );
    const within = samples.filter((s) => s.ts >= task.ts && s.ts <= end);
    const self = new Map<string, number>();
    const total = new Map<string, number>();
    for (const s of within) {
      self.set(name(s.node), (self.get(name(s.node)) ?? 0) + 1);
      for (const id of new Set(stack(s.node).map(name))) total.set(id, (total.get(id) ?? 0) + 1);
    }
    const n = within.length || 1;
    console.log(
      `   ${within.length} samples; self: ${[...self]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 6)
        .map(([k, v]) => `${k} ${((100 * v) / n).toFixed(0)}%`)
        .join(" · ")}`,
    );
    console.log(
      `   total: ${[...total]
        .filter(
          ([k]) =>
            /app\/|workLoopSync|workLoopConcurrent|commitRoot|flushPassiveEffects|evaluate|dispatchDiscrete|TimerFire|runMicrotasks/.test(
              k,
            ) ||
            (k.includes("node_modules") === false &&
              !k.includes("react-dom") &&
              !k.includes("scheduler") &&
              !k.startsWith("(root)") &&
              !k.startsWith("(program)")),
        )
        .sort((a, b) => b[1] - a[1])
        .slice(0, Number(process.env.TOPN ?? 14))
        .map(([k, v]) => `${k} ${((100 * v) / n).toFixed(0)}%`)
        .join(" · ")}`,
    );
  }
}

if (values.load) {
  const events: TraceEvent[] = JSON.parse(readFileSync(values.load, "utf8")).traceEvents;
  const navStart = events.find((e) => e.name === "navigationStart" && e.args?.data?.isLoadingMainFrame)?.ts ?? 0;
  analyse(events, navStart + Number(values.fcp ?? 0) * 1000);
  process.exit(0);
}
const weather = await startFakeOpenMeteo();
const warnings = await startQuietWarnings();
const app = await startAppServer({
  TEST_HOOKS: "0",
  OPEN_METEO_FORECAST_URL: weather.url,
  OPEN_METEO_GEOCODING_URL: weather.url,
  ...warnings.env,
});
const port = await freePort();
const browser = await chromium.launch({
  executablePath: CHROMIUM_PATH,
  args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`],
  env: CHROMIUM_ENV,
});
try {
  const token = await userWithPlaces(app.baseURL);
  const headers: Record<string, string> = values.page === "signed-in" ? { Cookie: `${SESSION_COOKIE}=${token}` } : {};
  for (let r = 0; r < Number(values.runs); r++) {
    const result = await lighthouse(values.url ?? `${app.baseURL}/`, {
      port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance"],
      maxWaitForLoad: 10_000,
      extraHeaders: headers,
      additionalTraceCategories: "disabled-by-default-v8.cpu_profiler",
    } as never);
    const lhr = result!.lhr;
    const m = (lhr.audits.metrics?.details as Loose)?.items?.[0] ?? {};
    console.log(
      `\nRUN ${r + 1}: TBT ${lhr.audits["total-blocking-time"]?.numericValue?.toFixed(0)} ms; FCP sim ${m.firstContentfulPaint} obs ${m.observedFirstContentfulPaint}; TTI sim ${m.interactive}; LCP sim ${m.largestContentfulPaint}; score ${lhr.categories.performance?.score}`,
    );
    for (const item of ((lhr.audits["long-tasks"]?.details as Loose)?.items ?? []) as Loose[])
      console.log(`  long task sim start ${Number(item.startTime).toFixed(0)} dur ${Number(item.duration).toFixed(0)} ${item.url}`);
    const trace = (result as Loose).artifacts.Trace ?? (result as Loose).artifacts.traces?.defaultPass;
    const events: TraceEvent[] = trace.traceEvents;
    if (values.save) writeFileSync(values.save, JSON.stringify(trace));
    const navStart = events.find((e) => e.name === "navigationStart" && e.args?.data?.isLoadingMainFrame)?.ts ?? 0;
    analyse(events, navStart + m.observedFirstContentfulPaint * 1000);
  }
} finally {
  await browser.close();
  await app.stop();
  await weather.close();
  await warnings.close();
}
