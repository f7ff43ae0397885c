import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startFakeOfficialWarnings, type FakeOfficialWarnings } from "../../tests/fakes/official-warnings";
import { freePort } from "../../tests/support/free-port";
import { testClockEnv } from "../../tests/support/test-clock";

export { freePort };

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const SERVER_ENTRY = path.join(ROOT, "build/server/index.js");

export type AppServer = {
  baseURL: string;
  port: number;
  /** The server process (benchmarks read its CPU time). */
  pid: number;
  /** Everything the server printed so far (stdout and stderr). */
  output: () => string;
  /** What it printed on stdout alone: its JSON log lines. */
  stdout: () => string;
  /** Sends the server a signal (a shutdown test's SIGTERM) without waiting for it. */
  signal: (signal: NodeJS.Signals) => void;
  /** Resolves when the process has exited, with its exit code (null: ended by a signal). */
  exited: Promise<number | null>;
  stop: () => Promise<void>;
};

async function waitForHealth(url: string, child: ChildProcess, output: () => string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`The app server exited with code ${child.exitCode}:\n${output()}`);
    }
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The app server did not answer /healthz within ${timeoutMs} ms:\n${output()}`);
}

/**
 * Starts the production build (`build/server/index.js`) on a free loopback port (or `env.PORT`,
 * to restart a server where its pages expect it), with its own empty data directory
 * (removed on stop) unless `env.DATA_DIR` names one. `entry` names another build's server;
 * `nodeArgs` go to node before it (benchmarks profile with `--cpu-prof`). Its official warnings
 * come from a loopback fake, never the real services: `env`'s NWS_ALERTS_URL and METEOALARM_URL,
 * else the run's (E2E_FAKE_WARNINGS_URL, which e2e/global-setup.ts starts), else one of its own
 * (no warnings anywhere; closed on stop), for benchmarks and scripts that start servers alone.
 */
export async function startAppServer(
  env: Record<string, string> = {},
  { entry = SERVER_ENTRY, nodeArgs = [] as string[] } = {},
): Promise<AppServer> {
  if (!existsSync(entry)) {
    throw new Error("No production build: run `npm run build` before the end-to-end tests.");
  }
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const runWarnings = process.env.E2E_FAKE_WARNINGS_URL;
  const ownWarnings: FakeOfficialWarnings | null =
    env.NWS_ALERTS_URL && env.METEOALARM_URL ? null : runWarnings ? null : await startFakeOfficialWarnings();
  const warningsUrl = ownWarnings?.url ?? runWarnings;
  const ownDataDir = env.DATA_DIR ? null : mkdtempSync(path.join(tmpdir(), "weatherbot-e2e-"));
  const child = spawn(process.execPath, [...nodeArgs, entry], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      // The run's pinned clock and time zone: the server's "now" is the tests' and the browser's.
      ...testClockEnv(),
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      TEST_HOOKS: "1",
      // Hundreds of sign-ups: at OWASP's cost each takes half a second of a core (the container test keeps it). The
      // server takes the test cost only with its test hooks on.
      PASSWORD_HASH_COST: env.TEST_HOOKS === "0" ? "owasp" : "test",
      // The suite's browsers and the benchmarks' load all come from 127.0.0.1, as a whole office
      // behind one address would: the limits stay on (the benchmarks measure what they cost) but
      // so high that only a test that lowers them meets them.
      REQUEST_LIMIT: "1000000",
      MUTATION_LIMIT: "1000000",
      ...(ownDataDir ? { DATA_DIR: ownDataDir } : {}),
      // The loopback fake serves Open-Meteo's forecast and air-quality APIs alike: a server pointed at it
      // for forecasts asks it for air quality too (never the real service from a test).
      ...(env.OPEN_METEO_FORECAST_URL ? { OPEN_METEO_AIR_QUALITY_URL: env.OPEN_METEO_FORECAST_URL } : {}),
      ...(warningsUrl ? { NWS_ALERTS_URL: warningsUrl, METEOALARM_URL: warningsUrl } : {}),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  let stdout = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    log += chunk.toString();
    stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  const output = () => log;
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const baseURL = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(baseURL, child, output, 20_000);
  } catch (error) {
    child.kill("SIGKILL");
    await ownWarnings?.close();
    throw error;
  }
  return {
    baseURL,
    port,
    pid: child.pid!,
    output,
    stdout: () => stdout,
    signal: (signal) => void child.kill(signal),
    exited,
    stop: async () => {
      await new Promise<void>((resolve) => {
        // Exited already: with a code, or killed by a signal (then exitCode stays null).
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
      });
      if (ownDataDir) rmSync(ownDataDir, { recursive: true, force: true });
      await ownWarnings?.close();
    },
  };
}
