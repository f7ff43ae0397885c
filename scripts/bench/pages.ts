/**
 * The page benchmark: the signed-in `/` (a user with 10 places) and the visitor `/` of the
 * production server, each beside a bare React Router page that shows the same (its baseline,
 * scripts/bench/bare-page), at 50 connections in alternating rounds of one run; and each
 * page's HTML size. `npm run bench` runs it as one of its sections; alone:
 *
 *   npx tsx scripts/bench/pages.ts [--rounds 6] [--seconds 3] [--page signed-in|visitor] [--profile DIR]
 *
 * Each round loads each page on both servers, the first of the two alternating; a load
 * measures from the moment every connection has had an answer (load.ts, `prime`). A
 * figure is the median of its rounds; the share is the median of the rounds' shares.
 *
 * The bare page's content comes from the real pages of this run (page-fixture.ts), written
 * to a fixture file before the bare server starts, and read back from the bare page to check
 * that it shows the same. Neither server compresses for the load
 * (it asks for no encoding): both measure rendering; the gzipped sizes are computed here.
 * `--profile DIR` runs the app server with `--cpu-prof` (its whole life: start-up, warm-up
 * and the rounds), for scripts/bench/cpu-profile.ts.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { isDeepStrictEqual, parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { SESSION_COOKIE } from "../../app/shared/session-cookie";
import { freePort, ROOT, startAppServer } from "../../e2e/support/app-server";
import { startFakeOpenMeteo } from "../../tests/fakes/open-meteo";
import { startQuietWarnings } from "./warning-services";
import { signUpWithPlaces } from "./api";
import { runLoad, type LoadResult } from "./load";
import { EXPECTED, extractSignedIn, extractVisitor, type PagesFixture } from "./page-fixture";
import { notFullPage, schedule, shareOfBare, summarise, type PageKind, type Rounds, type ServerKind } from "./page-rounds";
import { cpuSeconds } from "./process-cpu";

/**
 * Issue 31's budget: shares of the bare page in the same run, and the signed-in page's p99 at most
 * this many times the bare page's (an absolute p99 held only on a fast machine).
 */
export const PAGE_BUDGET = { signedInShare: 0.4, signedInP99OfBare: 2, visitorShare: 0.4, signedInHtmlKb: 150 };
export const PAGE_KINDS: readonly PageKind[] = ["signed-in", "visitor"];

const CONNECTIONS = 50;
const WARM_UP_MS = 2_000;
const BARE_DIR = path.join(ROOT, "scripts/bench/bare-page");
const BARE_BUILD = path.join(ROOT, "build/bench-bare-page");
const BARE_ENTRY = path.join(BARE_BUILD, "server/index.js");
/** The bare app's page for each of the real `/`s. */
const BARE_PATH: Record<PageKind, string> = { "signed-in": "/places", visitor: "/" };

type HtmlSize = { bytes: number; gzipBytes: number };
export type PageFigures = {
  page: PageKind;
  app: Rounds;
  bare: Rounds;
  share: { median: number; perRound: number[] };
  html: Record<ServerKind, HtmlSize>;
  /** CPU seconds per page of each server, over every round (its priming answers included). */
  cpuPerPage: Record<ServerKind, number>;
};

const newest = (dir: string): number =>
  Math.max(
    ...readdirSync(dir, { withFileTypes: true }).map((entry) =>
      entry.isDirectory() ? newest(path.join(dir, entry.name)) : statSync(path.join(dir, entry.name)).mtimeMs,
    ),
  );

/** Builds the bare page when its build is missing or older than its sources. */
export function ensureBareBuild() {
  const sources = Math.max(newest(BARE_DIR), statSync(path.join(ROOT, "scripts/bench/page-fixture.ts")).mtimeMs);
  if (existsSync(BARE_ENTRY) && statSync(BARE_ENTRY).mtimeMs >= sources) return;
  console.log("Building the bare page (scripts/bench/bare-page)…");
  const built = spawnSync(path.join(ROOT, "node_modules/.bin/react-router"), ["build", BARE_DIR], { cwd: ROOT, encoding: "utf8" });
  if (built.status !== 0) throw new Error(`The bare page did not build:\n${built.stdout}\n${built.stderr}`);
}

/** The bare page's server; `forBrowser` serves its assets too (browser-server.mjs), for a browser's load. */
export async function startBareServer(fixtureFile: string, { forBrowser = false } = {}) {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(BARE_DIR, forBrowser ? "browser-server.mjs" : "server.mjs")], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      NODE_ENV: "production",
      PORT: String(port),
      BARE_PAGE_BUILD: BARE_ENTRY,
      BARE_PAGE_FIXTURE: fixtureFile,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`The bare page's server exited with code ${code}`)));
  });
  return { baseURL: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => void child.kill("SIGTERM") };
}

/** The page as a browser gets it, decoded; fails on anything but a 200. */
async function fetchPage(url: string, headers: Record<string, string>): Promise<string> {
  const response = await fetch(url, { headers, redirect: "manual" });
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return response.text();
}

const size = (html: string): HtmlSize => ({ bytes: Buffer.byteLength(html), gzipBytes: gzipSync(html).length });

/** A browser's navigation, less Accept-Encoding (see above): the same for both servers. */
const BROWSER_HEADERS = {
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "accept-language": "en-US,en;q=0.9",
};

/** What only a full page of each kind holds. */
const FULL_PAGE = {
  "signed-in": notFullPage([
    { text: 'data-testid="forecast-card"', times: 1 },
    { text: 'data-testid="places"', times: 1 },
  ]),
  visitor: notFullPage([
    { text: 'type="search"', times: 1 },
    { text: 'data-testid="forecast-card"', times: 0 },
  ]),
};

export async function benchPages(
  options: { rounds?: number; seconds?: number; pages?: readonly PageKind[]; profileDir?: string } = {},
): Promise<PageFigures[]> {
  const { rounds = 6, seconds = 3, pages = PAGE_KINDS, profileDir } = options;
  ensureBareBuild();
  const scratch = mkdtempSync(path.join(tmpdir(), "weatherbot-bench-pages-"));
  const weather = await startFakeOpenMeteo();
  const warnings = await startQuietWarnings();
  const stops: Array<() => unknown> = [];
  try {
    const nodeArgs = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(profileDir)}`] : [];
    if (profileDir) mkdirSync(profileDir, { recursive: true });
    const app = await startAppServer(
      { TEST_HOOKS: "0", OPEN_METEO_FORECAST_URL: weather.url, OPEN_METEO_GEOCODING_URL: weather.url, ...warnings.env },
      { nodeArgs },
    );
    stops.push(app.stop);
    const token = await signUpWithPlaces(`${app.baseURL}/graphql`);
    const headers: Record<PageKind, Record<string, string>> = {
      "signed-in": { cookie: `${SESSION_COOKIE}=${token}` },
      visitor: {},
    };

    // The bare page's content: the real pages of this run, as a person sees them.
    const appHtml = {
      "signed-in": await fetchPage(`${app.baseURL}/`, { ...BROWSER_HEADERS, ...headers["signed-in"] }),
      visitor: await fetchPage(`${app.baseURL}/`, BROWSER_HEADERS),
    };
    const fixture: PagesFixture = { signedIn: extractSignedIn(appHtml["signed-in"]), visitor: extractVisitor(appHtml.visitor) };
    const fixtureFile = path.join(scratch, "fixture.json");
    writeFileSync(fixtureFile, JSON.stringify(fixture));
    const bare = await startBareServer(fixtureFile);
    stops.push(bare.stop);

    const baseURL: Record<ServerKind, string> = { app: app.baseURL, bare: bare.baseURL };
    const pid: Record<ServerKind, number> = { app: app.pid, bare: bare.pid };
    const target = (page: PageKind, server: ServerKind, durationMs: number) => ({
      url: `${baseURL[server]}${server === "app" ? "/" : BARE_PATH[page]}`,
      method: "GET" as const,
      body: "",
      headers: { ...BROWSER_HEADERS, ...(server === "app" ? headers[page] : {}) },
      connections: CONNECTIONS,
      durationMs,
      isError: FULL_PAGE[page],
      prime: true,
    });
    const html = {} as Record<PageKind, Record<ServerKind, HtmlSize>>;
    for (const page of pages) {
      const bareHtml = await fetchPage(target(page, "bare", 0).url, BROWSER_HEADERS);
      for (const [server, text] of [
        ["app", appHtml[page]],
        ["bare", bareHtml],
      ] as const) {
        if (FULL_PAGE[page]({ status: 200, body: Buffer.from(text) }))
          throw new Error(`The ${server} server's ${page} page is not a full one`);
      }
      // The baseline shows what the page shows: read back from its HTML, it gives the same fixture.
      const shown = page === "signed-in" ? extractSignedIn(bareHtml) : extractVisitor(bareHtml);
      if (!isDeepStrictEqual(shown, page === "signed-in" ? fixture.signedIn : fixture.visitor))
        throw new Error(`The bare ${page} page does not show what the app's does`);
      html[page] = { app: size(appHtml[page]), bare: size(bareHtml) };
    }

    console.log(`Load average ${loadAverage()} (a busy machine moves every figure; the shares move least).`);
    console.log(`Warming up, then ${rounds} rounds of ${seconds} s per page and server (${CONNECTIONS} connections)…`);
    for (const page of pages) for (const server of ["app", "bare"] as const) await runLoad(target(page, server, WARM_UP_MS));
    const samples = new Map<string, LoadResult[]>();
    const cpu = new Map<string, { seconds: number; answers: number }>();
    for (const { round, page, server } of schedule(rounds, pages)) {
      const cpuBefore = cpuSeconds(pid[server]);
      const result = await runLoad(target(page, server, seconds * 1000));
      const spent = cpu.get(`${page} ${server}`) ?? { seconds: 0, answers: 0 };
      cpu.set(`${page} ${server}`, {
        seconds: spent.seconds + cpuSeconds(pid[server]) - cpuBefore,
        answers: spent.answers + result.requests + CONNECTIONS,
      });
      if (result.errors > 0)
        throw new Error(`${page} on the ${server} server: ${result.errors} answers not a full page in round ${round + 1}`);
      const key = `${page} ${server}`;
      samples.set(key, [...(samples.get(key) ?? []), result]);
      console.log(`  round ${round + 1}: ${key.padEnd(15)} ${result.rps.toFixed(0).padStart(5)} pages/s, p99 ${result.p99.toFixed(0)} ms`);
    }
    console.log(`Load average ${loadAverage()} after the rounds.`);
    return pages.map((page) => {
      const [appSamples, bareSamples] = [samples.get(`${page} app`)!, samples.get(`${page} bare`)!];
      return {
        page,
        app: summarise(appSamples),
        bare: summarise(bareSamples),
        share: shareOfBare(appSamples, bareSamples),
        html: html[page],
        cpuPerPage: {
          app: cpu.get(`${page} app`)!.seconds / cpu.get(`${page} app`)!.answers,
          bare: cpu.get(`${page} bare`)!.seconds / cpu.get(`${page} bare`)!.answers,
        },
      };
    });
  } finally {
    for (const stop of stops.reverse()) await stop();
    await weather.close();
    await warnings.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(", ");
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const verdict = (ok: boolean) => (ok ? "within" : "OVER");

/** The figures as rows of `npm run bench` (name, value, note). */
export function pageRows(figures: PageFigures[]): Array<[string, string, string]> {
  const rows: Array<[string, string, string]> = [];
  for (const { page, app, bare, share, html, cpuPerPage } of figures) {
    const who = page === "signed-in" ? "signed-in /" : "visitor /";
    const shareBudget = page === "signed-in" ? PAGE_BUDGET.signedInShare : PAGE_BUDGET.visitorShare;
    const rounds = (list: LoadResult[], figure: "rps" | "p99") => list.map((sample) => sample[figure].toFixed(0)).join(", ");
    rows.push([
      `${who}${page === "signed-in" ? ` (${EXPECTED.places} places)` : ""}: pages/s`,
      app.rps.toFixed(0),
      `median of ${rounds(app.samples, "rps")}; p50 ${app.p50.toFixed(0)} ms`,
    ]);
    rows.push([
      `${who}: bare page's pages/s`,
      bare.rps.toFixed(0),
      `median of ${rounds(bare.samples, "rps")}; p99 ${bare.p99.toFixed(0)} ms`,
    ]);
    rows.push([
      `${who}: share of bare page`,
      `${(share.median * 100).toFixed(0)} %`,
      `median of ${share.perRound.map((value) => `${(value * 100).toFixed(0)}`).join(", ")} %; target ≥ ${shareBudget * 100} %: ${verdict(share.median >= shareBudget)}`,
    ]);
    const p99Note = `median of ${rounds(app.samples, "p99")}`;
    rows.push([
      `${who}: p99`,
      `${app.p99.toFixed(0)} ms`,
      page === "signed-in"
        ? `${p99Note}; target ≤ ${PAGE_BUDGET.signedInP99OfBare} × the bare page's ${bare.p99.toFixed(0)} ms: ${verdict(app.p99 <= PAGE_BUDGET.signedInP99OfBare * bare.p99)}`
        : p99Note,
    ]);
    rows.push([
      `${who}: CPU per page`,
      `${(cpuPerPage.app * 1000).toFixed(1)} ms`,
      `bare page ${(cpuPerPage.bare * 1000).toFixed(1)} ms: ${((cpuPerPage.bare / cpuPerPage.app) * 100).toFixed(0)} % of the app's (its share when CPU-bound; a busy machine moves it least)`,
    ]);
    const sizeNote = `${kb(html.app.gzipBytes)} gzipped; bare page ${kb(html.bare.bytes)} (${kb(html.bare.gzipBytes)} gzipped)`;
    rows.push([
      `${who}: HTML`,
      kb(html.app.bytes),
      page === "signed-in"
        ? `${sizeNote}; budget ${PAGE_BUDGET.signedInHtmlKb} KB: ${verdict(html.app.bytes / 1024 <= PAGE_BUDGET.signedInHtmlKb)}`
        : sizeNote,
    ]);
  }
  return rows;
}

function parsePageArgs(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      rounds: { type: "string", default: "6" },
      seconds: { type: "string", default: "3" },
      page: { type: "string", multiple: true },
      profile: { type: "string" },
    },
  });
  const pages = (values.page ?? [...PAGE_KINDS]) as PageKind[];
  for (const page of pages) if (!PAGE_KINDS.includes(page)) throw new Error(`--page is one of ${PAGE_KINDS.join(", ")}, not ${page}`);
  const rounds = Number(values.rounds);
  const seconds = Number(values.seconds);
  if (!(rounds >= 1 && Number.isInteger(rounds))) throw new Error(`--rounds is a whole number ≥ 1, not ${values.rounds}`);
  if (!(seconds > 0)) throw new Error(`--seconds is a positive number, not ${values.seconds}`);
  return { rounds, seconds, pages, profileDir: values.profile };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const options = parsePageArgs(process.argv.slice(2));
  const figures = await benchPages(options);
  console.log("\nFigures:");
  for (const [name, value, note] of pageRows(figures)) console.log(`${name.padEnd(42)} ${value.padStart(10)}  ${note}`);
  if (options.profileDir)
    console.log(
      `\nCPU profile of the app server in ${options.profileDir}: npx tsx scripts/bench/cpu-profile.ts ${options.profileDir}/*.cpuprofile`,
    );
}
