import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT } from "./app-server";

export type NextBuild = { entry: string; buildId: string; dispose: () => void };

/**
 * A second production build of the same source with another build id, beside the
 * suite's own: what a deploy of a new version looks like to a browser holding the old one.
 */
export function buildNextVersion(): NextBuild {
  const dir = mkdtempSync(path.join(tmpdir(), "weatherbot-next-build-"));
  // The server bundle keeps its packages external: they resolve from here.
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  const buildDir = path.join(dir, "build");
  const buildId = `next-${Date.now()}`;
  const env = { ...process.env, BUILD_DIR: buildDir, BUILD_ID: buildId };
  const result = spawnSync(path.join(ROOT, "node_modules/.bin/react-router"), ["build"], { cwd: ROOT, env, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`Building the next version failed:\n${result.stdout}\n${result.stderr}`);
  return { entry: path.join(buildDir, "server/index.js"), buildId, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
