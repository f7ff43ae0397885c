/**
 * `npm run bench`: the project's performance figures, printed. Starts the production
 * build on a free port and measures what a first visit to `/` downloads.
 * Later issues add their figures here.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { ROOT, startAppServer } from "../e2e/support/app-server";

const BUDGET_KB = { firstLoadJs: 120 };

/** Every script the page's HTML references: <script src> and <link rel="modulepreload">. */
export function referencedScripts(html: string): string[] {
  const sources = new Set<string>();
  for (const match of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) sources.add(match[1]!);
  for (const match of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)) sources.add(match[1]!);
  for (const match of html.matchAll(/<link\b[^>]*\bhref="([^"]+)"[^>]*\brel="modulepreload"/g)) sources.add(match[1]!);
  // Inline module scripts import the entry; count those imports too.
  for (const match of html.matchAll(/import\s*(?:[^"']*from\s*)?["'](\/assets\/[^"']+\.js)["']/g)) sources.add(match[1]!);
  return [...sources];
}

async function gzippedKb(file: string): Promise<number> {
  return gzipSync(await readFile(file), { level: 9 }).length / 1024;
}

async function firstLoadJs(baseURL: string) {
  const html = await (await fetch(`${baseURL}/`)).text();
  const scripts = referencedScripts(html).filter((src) => src.startsWith("/"));
  const sizes = await Promise.all(
    scripts.map(async (src) => ({ src, kb: await gzippedKb(path.join(ROOT, "build/client", src)) })),
  );
  return { sizes, totalKb: sizes.reduce((sum, { kb }) => sum + kb, 0) };
}

function row(name: string, value: string, note = "") {
  console.log(`${name.padEnd(36)} ${value.padStart(12)}  ${note}`);
}

const server = await startAppServer({ TEST_HOOKS: "0" });
try {
  const { sizes, totalKb } = await firstLoadJs(server.baseURL);
  console.log("\nFirst-load JavaScript of / (gzip -9), by file:");
  for (const { src, kb } of sizes.sort((a, b) => b.kb - a.kb)) console.log(`  ${kb.toFixed(1).padStart(7)} KB  ${src}`);
  console.log("\nFigures:");
  const within = totalKb <= BUDGET_KB.firstLoadJs;
  row("first-load JS of /", `${totalKb.toFixed(1)} KB`, `budget ${BUDGET_KB.firstLoadJs} KB: ${within ? "within" : "OVER"}`);
} finally {
  await server.stop();
}
