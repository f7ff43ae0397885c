import { execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { TestProject } from "vitest/node";
import { newRunId, podmanStreamed, removeRun, removeStaleRuns } from "./support/podman";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");

/** The image the checks run; `CONTAINER_TEST_IMAGE` names one already built instead (nothing is built then). */
const IMAGE = "localhost/weatherbot:container-test";

const say = (line: string) => console.log(`[container] ${line}`);
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(0)} s`;

async function has(program: string) {
  try {
    await run("sh", ["-c", `command -v ${program}`]);
    return true;
  } catch {
    return false;
  }
}

function streamed(command: string, args: string[], options: { cwd?: string } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, stdio: ["ignore", "inherit", "inherit"] });
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} exited ${code}`))));
  });
}

/**
 * The build installs from the host's npm cache (decision 013). npm ci asks for each package's metadata in
 * the short form; a cache filled by `npm install <name>` holds only the long form for the packages it added.
 * Installing the lock file once on the host, where the registry is reachable, puts every answer the build
 * will ask for into the cache. Done once per package-lock.json (a stamp in the cache says which).
 */
async function fillNpmCache(cacheDir: string) {
  const lock = await readFile(path.join(root, "package-lock.json"));
  const stamp = path.join(cacheDir, `_weatherbot-container-${createHash("sha256").update(lock).digest("hex").slice(0, 16)}`);
  if (existsSync(stamp)) return;
  const started = Date.now();
  say("npm cache: filling it with what the image's npm ci will ask for (once per package-lock.json)");
  const dir = await mkdtemp(path.join(tmpdir(), "weatherbot-npm-cache-"));
  try {
    await cp(path.join(root, "package.json"), path.join(dir, "package.json"));
    await cp(path.join(root, "package-lock.json"), path.join(dir, "package-lock.json"));
    await run("npm", ["ci", "--prefer-offline", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: dir,
      maxBuffer: 64 * 1024 * 1024,
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  await writeFile(stamp, `${new Date().toISOString()}\n`);
  say(`npm cache: filled in ${seconds(started)}`);
}

/**
 * `npm run test:container`, before the checks: the tools, the base image (scripts/container/base-image.sh:
 * built here when missing), the app's image from the repository's Dockerfile, built with podman from the
 * host's npm cache. Afterwards (even after a failure): every container and volume of the run is removed.
 */
export default async function setup(project: TestProject) {
  const missing: string[] = [];
  for (const program of ["podman", "runc", "nginx", "openssl", "debootstrap"]) if (!(await has(program))) missing.push(program);
  if (missing.length) {
    throw new Error(`npm run test:container needs ${missing.join(", ")}: apt-get install -y podman runc nginx debootstrap openssl`);
  }
  // Containers and volumes an interrupted earlier run left behind (all labelled by this test).
  await removeStaleRuns();

  const runId = newRunId();
  let image = process.env.CONTAINER_TEST_IMAGE;
  if (!image) {
    const started = Date.now();
    await streamed("bash", [path.join(root, "scripts/container/base-image.sh")]);
    const { stdout } = await run("npm", ["config", "get", "cache"], { cwd: root });
    const cacheDir = stdout.trim();
    await fillNpmCache(cacheDir);
    say(`building ${IMAGE} from the Dockerfile (podman, --pull=never, npm cache ${cacheDir} mounted as an overlay)`);
    const buildStarted = Date.now();
    await podmanStreamed(
      [
        "build",
        "--format",
        "docker",
        "--pull=never",
        "--ulimit",
        "nofile=20000:20000",
        "--ulimit",
        "nproc=32768:32768",
        // An overlay: the build reads the host's cache and its writes are thrown away.
        "--volume",
        `${cacheDir}:/root/.npm:O`,
        "--tag",
        IMAGE,
        root,
      ],
      (line) => {
        if (/^\[\d\/\d\] STEP|^STEP|Successfully tagged|^npm error/.test(line)) say(`  ${line.slice(0, 160)}`);
      },
    );
    say(`image built in ${seconds(buildStarted)} (${seconds(started)} with the base image and the npm cache)`);
    image = IMAGE;
  }
  project.provide("containerImage", image);
  project.provide("containerRunId", runId);

  return async () => {
    await removeRun(runId);
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    containerImage: string;
    containerRunId: string;
  }
}
