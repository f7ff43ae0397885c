/**
 * Issue 35's budget: how soon `/` becomes usable on a phone. Lighthouse 12's mobile run with
 * its default, simulated throttling (4× CPU, slow 4G) measures Total Blocking Time and the
 * performance score of the bare React Router page (scripts/bench/bare-page, its visitor `/`),
 * the visitor `/` and the signed-in `/` with five places, in alternating rounds; each figure
 * is the median of its rounds, and the verdict compares medians over at least five rounds
 * (blocking-verdict.ts). `npm run bench` runs it as one of its sections; alone:
 *
 *   npx tsx scripts/bench/blocking-time.ts [--rounds 5] [--detail]
 *
 * `--detail` prints, per page, the scripts that cost most main-thread time (Lighthouse's
 * bootup-time audit) and the kinds of work (mainthread-work-breakdown), medians over rounds.
 * This machine is slower than the phone Lighthouse assumes: read ratios, not absolutes.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";
import lighthouse from "lighthouse";
import { SESSION_COOKIE } from "../../app/shared/session-cookie";
import { freePort, startAppServer } from "../../e2e/support/app-server";
import { CHROMIUM_ARGS, CHROMIUM_ENV, CHROMIUM_PATH } from "../../e2e/support/chromium";
import { startFakeOpenMeteo } from "../../tests/fakes/open-meteo";
import { signUpBenchUser } from "./api";
import { graphql } from "./graphql";
import { blockingVerdict, describeVerdict } from "./blocking-verdict";
import { median } from "./median";
import { extractVisitor } from "./page-fixture";
import { ensureBareBuild, startBareServer } from "./pages";
import { startQuietWarnings } from "./warning-services";

/** Five places (label, latitude, longitude) in the fake weather: the signed-in home measured (and pictured by scripts/screens.ts). */
export const PLACES: ReadonlyArray<readonly [string, number, number]> = [
  ["Home", 47.37, 8.54],
  ["Office", 52.52, 13.4],
  ["Cabin", 46.5, 9.8],
  ["Harbour", 53.55, 9.99],
  ["Studio", 48.86, 2.35],
];
// See lighthouse.ts: Debian's Chromium leaves some module requests unfinished for Lighthouse.
const MAX_WAIT_FOR_LOAD_MS = 10_000;

export type BlockingPage = "bare" | "visitor" | "signed-in";
const PAGES: readonly BlockingPage[] = ["bare", "visitor", "signed-in"];

type Sample = { tbtMs: number; score: number; scripts: Map<string, number>; work: Map<string, number>; longTasks: string[] };
export type BlockingFigures = Record<BlockingPage, { tbtMs: number; score: number; samples: Sample[] }>;

/** Signs a benchmark user up with these places (five by default); returns their token. */
export async function userWithPlaces(baseURL: string, email = "tbt@example.com", places = PLACES): Promise<string> {
  const url = `${baseURL}/graphql`;
  const token = await signUpBenchUser(url, email);
  for (const [label, latitude, longitude] of places) {
    await graphql(
      url,
      `
        mutation ($label: String!, $latitude: Float!, $longitude: Float!) {
          addPlace(latitude: $latitude, longitude: $longitude, label: $label) {
            id
          }
        }
      `,
      { label, latitude, longitude },
      token,
    );
  }
  return token;
}

type Item = Record<string, unknown>;
const items = (audit: { details?: unknown } | undefined): Item[] => ((audit?.details as { items?: Item[] })?.items ?? []) as Item[];

/** One Lighthouse run; a run that lost its trace now and then (no TBT) is run again, twice at most. */
async function run(port: number, url: string, headers: Record<string, string>): Promise<Sample> {
  for (let attempt = 0; ; attempt++) {
    const result = await lighthouse(url, {
      port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance"],
      maxWaitForLoad: MAX_WAIT_FOR_LOAD_MS,
      extraHeaders: headers,
    });
    const { audits, categories } = result!.lhr;
    const tbt = audits["total-blocking-time"]?.numericValue;
    const score = categories.performance?.score;
    if (tbt !== undefined && typeof score === "number") {
      const origin = new URL(url).origin;
      return {
        tbtMs: tbt,
        score: Math.round(score * 100),
        scripts: new Map(items(audits["bootup-time"]).map((item) => [String(item.url).replace(origin, ""), Number(item.total)])),
        work: new Map(items(audits["mainthread-work-breakdown"]).map((item) => [String(item.groupLabel), Number(item.duration)])),
        longTasks: items(audits["long-tasks"]).map(
          (item) =>
            `${Number(item.startTime).toFixed(0)} ms: ${Number(item.duration).toFixed(0)} ms in ${String(item.url).replace(origin, "")}`,
        ),
      };
    }
    const reason = result!.lhr.runtimeError?.message ?? audits["total-blocking-time"]?.errorMessage ?? "no reason given";
    if (attempt >= 2) throw new Error(`Lighthouse measured no TBT for ${url}: ${reason}`);
    console.log(`  (run again: ${reason})`);
  }
}

export async function benchBlockingTime({ rounds = 5 } = {}): Promise<BlockingFigures> {
  ensureBareBuild();
  const scratch = mkdtempSync(path.join(tmpdir(), "weatherbot-bench-tbt-"));
  const weather = await startFakeOpenMeteo();
  const warnings = await startQuietWarnings();
  const stops: Array<() => unknown> = [];
  try {
    const app = await startAppServer({
      TEST_HOOKS: "0",
      OPEN_METEO_FORECAST_URL: weather.url,
      OPEN_METEO_GEOCODING_URL: weather.url,
      ...warnings.env,
    });
    stops.push(app.stop);
    const token = await userWithPlaces(app.baseURL);
    // The bare page shows what the visitor `/` shows (its only route that this section loads).
    const visitorHtml = await (await fetch(`${app.baseURL}/`, { headers: { "accept-language": "en-US" } })).text();
    const fixtureFile = path.join(scratch, "fixture.json");
    writeFileSync(fixtureFile, JSON.stringify({ visitor: extractVisitor(visitorHtml) }));
    const bare = await startBareServer(fixtureFile, { forBrowser: true });
    stops.push(bare.stop);
    const port = await freePort();
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`],
      // Never under the test clock's libfaketime: Chromium runs many times slower with it.
      env: CHROMIUM_ENV,
    });
    stops.push(() => browser.close());

    const target: Record<BlockingPage, { url: string; headers: Record<string, string> }> = {
      bare: { url: `${bare.baseURL}/`, headers: {} },
      visitor: { url: `${app.baseURL}/`, headers: {} },
      "signed-in": { url: `${app.baseURL}/`, headers: { Cookie: `${SESSION_COOKIE}=${token}` } },
    };
    const samples: Record<BlockingPage, Sample[]> = { bare: [], visitor: [], "signed-in": [] };
    for (let round = 0; round < rounds; round++) {
      // Each page goes first in turn: none always meets the machine as another left it.
      const order = PAGES.map((_, index) => PAGES[(index + round) % PAGES.length]!);
      for (const page of order) {
        const sample = await run(port, target[page].url, target[page].headers);
        samples[page].push(sample);
        console.log(`  round ${round + 1}: ${page.padEnd(9)} TBT ${sample.tbtMs.toFixed(0).padStart(5)} ms, score ${sample.score}`);
      }
    }
    const figures = {} as BlockingFigures;
    for (const page of PAGES) {
      const list = samples[page];
      figures[page] = { tbtMs: median(list.map((s) => s.tbtMs)), score: median(list.map((s) => s.score)), samples: list };
    }
    return figures;
  } finally {
    for (const stop of stops.reverse()) await stop();
    await weather.close();
    await warnings.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

const LABEL: Record<BlockingPage, string> = {
  bare: "bare page /",
  visitor: "visitor /",
  "signed-in": `signed-in / (${PLACES.length} places)`,
};

/** The figures as rows of `npm run bench` (name, value, note): each page's median TBT, the verdict, the runs. */
export function blockingRows(figures: BlockingFigures): Array<[string, string, string]> {
  const rows: Array<[string, string, string]> = [];
  const bareRuns = figures.bare.samples.map((s) => s.tbtMs);
  for (const page of PAGES) {
    const { tbtMs, score, samples } = figures[page];
    const runs = samples.map((s) => s.tbtMs.toFixed(0)).join(", ");
    const budget =
      page === "bare"
        ? "the baseline"
        : describeVerdict(
            blockingVerdict(
              samples.map((s) => s.tbtMs),
              bareRuns,
            ),
          );
    rows.push([`Lighthouse TBT of ${LABEL[page]}`, `${tbtMs.toFixed(0)} ms`, `${budget}; runs ${runs}`]);
    rows.push([
      `Lighthouse score of ${LABEL[page]}`,
      String(score),
      `median of ${samples.map((s) => s.score).join(", ")}${page === "bare" ? "" : `; bare ${figures.bare.score}`}`,
    ]);
  }
  return rows;
}

/** Medians per script and per kind of work, largest first: where the main thread's time goes. */
export function blockingDetail(figures: BlockingFigures): string[] {
  const lines: string[] = [];
  const medians = (samples: Sample[], pick: (s: Sample) => Map<string, number>) => {
    const keys = new Set(samples.flatMap((s) => [...pick(s).keys()]));
    return [...keys]
      .map((key) => [key, median(samples.map((s) => pick(s).get(key) ?? 0))] as const)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8);
  };
  for (const page of PAGES) {
    lines.push(`${LABEL[page]}:`);
    for (const [name, ms] of medians(figures[page].samples, (s) => s.work)) lines.push(`  ${ms.toFixed(0).padStart(6)} ms  ${name}`);
    lines.push("  by script (bootup-time, total):");
    for (const [name, ms] of medians(figures[page].samples, (s) => s.scripts)) lines.push(`  ${ms.toFixed(0).padStart(6)} ms  ${name}`);
    lines.push("  long tasks, each run (long-tasks):");
    for (const sample of figures[page].samples) lines.push(`    ${sample.longTasks.join(" · ") || "none"}`);
  }
  return lines;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const { values } = parseArgs({ options: { rounds: { type: "string", default: "5" }, detail: { type: "boolean", default: false } } });
  const rounds = Number(values.rounds);
  if (!(rounds >= 1 && Number.isInteger(rounds))) throw new Error(`--rounds is a whole number ≥ 1, not ${values.rounds}`);
  console.log(`Lighthouse mobile, simulated throttling: bare page, visitor / and signed-in /, ${rounds} alternating rounds…`);
  const figures = await benchBlockingTime({ rounds });
  if (values.detail) for (const line of blockingDetail(figures)) console.log(line);
  console.log("\nFigures:");
  for (const [name, value, note] of blockingRows(figures)) console.log(`${name.padEnd(42)} ${value.padStart(10)}  ${note}`);
}
