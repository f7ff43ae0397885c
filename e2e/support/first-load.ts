import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { ROOT } from "./app-server";

/** Issue 16's budget for the first load of `/` (a visitor's), gzipped; `npm run bench` prints it beside the others. */
export const FIRST_LOAD_BUDGET_KB = 180;

/** Every script a page's HTML references: <script src>, <link rel="modulepreload">, and the inline module's imports. */
export function referencedScripts(html: string): string[] {
  const sources = new Set<string>();
  for (const match of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) sources.add(match[1]!);
  for (const match of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)) sources.add(match[1]!);
  for (const match of html.matchAll(/<link\b[^>]*\bhref="([^"]+)"[^>]*\brel="modulepreload"/g)) sources.add(match[1]!);
  // Inline module scripts import the entry; count those imports too.
  for (const match of html.matchAll(/import\s*(?:[^"']*from\s*)?["'](\/assets\/[^"']+\.js)["']/g)) sources.add(match[1]!);
  return [...sources];
}

/** The page's first-load JavaScript, each built file gzipped alone (-9) as a browser would fetch it. */
export function firstLoadJs(html: string): { sizes: Array<{ src: string; kb: number }>; totalKb: number } {
  const scripts = referencedScripts(html).filter((src) => src.startsWith("/"));
  const sizes = scripts.map((src) => ({
    src,
    kb: gzipSync(readFileSync(path.join(ROOT, "build/client", src)), { level: 9 }).length / 1024,
  }));
  return { sizes, totalKb: sizes.reduce((sum, { kb }) => sum + kb, 0) };
}
