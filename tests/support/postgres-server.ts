import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chown, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "./free-port";
import { withoutFakedClock } from "./test-clock";

const run = promisify(execFile);

/**
 * Where Debian puts PostgreSQL's programs: version 15 (what `.ci/run` installs), else the
 * newest installed; POSTGRES_BIN names another directory.
 */
function postgresBin(): string {
  if (process.env.POSTGRES_BIN) return process.env.POSTGRES_BIN;
  const root = "/usr/lib/postgresql";
  if (existsSync(`${root}/15/bin/initdb`)) return `${root}/15/bin`;
  const versions = existsSync(root) ? readdirSync(root).filter((name) => /^\d+$/.test(name)) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error(`PostgreSQL is not installed (no ${root}/*/bin/initdb): apt-get install -y postgresql, or set POSTGRES_BIN`);
  return `${root}/${newest}/bin`;
}

export type PostgresServer = {
  /** Superuser URL of the `postgres` database: tests create their own databases through it. */
  adminUrl: string;
  port: number;
  /** Shuts the server down (`pg_ctl stop -m fast`: sessions are ended) and keeps its data, to be started again. */
  halt: () => Promise<void>;
  /** Starts a halted server again, on the same port and data. */
  resume: () => Promise<void>;
  stop: () => Promise<void>;
};

const asRoot = process.getuid?.() === 0;

/** PostgreSQL refuses to run as root: as root, its programs run as the `postgres` user. */
async function pgTool(tool: string, args: string[]): Promise<void> {
  const program = path.join(postgresBin(), tool);
  const [command, commandArgs] = asRoot ? ["runuser", ["-u", "postgres", "--", program, ...args]] : [program, args];
  try {
    // PostgreSQL keeps real time: the app asks it for no time of day, and libfaketime would only slow it.
    await run(command, commandArgs, { maxBuffer: 16 * 1024 * 1024, env: withoutFakedClock() });
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`${tool} ${args.join(" ")} failed:\n${stdout}${stderr}`, { cause: error });
  }
}

async function userIds(name: string): Promise<{ uid: number; gid: number }> {
  const [{ stdout: uid }, { stdout: gid }] = await Promise.all([run("id", ["-u", name]), run("id", ["-g", name])]);
  return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
}

/**
 * A throwaway PostgreSQL server for a test run: a fresh cluster in a temporary directory
 * (trust authentication, loopback only, its socket inside that directory), tuned to lose
 * data on a crash in exchange for speed, since nothing in it outlives the run. `stop`
 * shuts it down and removes the directory. `durable` (the benchmark's) keeps fsync and full
 * page writes and only lets commits return before they are flushed, as SQLite's WAL with
 * synchronous=NORMAL does: the two are then compared on equal terms.
 */
export async function startPostgresServer({
  durable = false,
  settings = [],
}: {
  durable?: boolean;
  /** More `name=value` server settings (the scale bench's statement statistics). */
  settings?: string[];
} = {}): Promise<PostgresServer> {
  const dir = await mkdtemp(path.join(tmpdir(), "weatherbot-pg-"));
  if (asRoot) {
    const { uid, gid } = await userIds("postgres");
    await chown(dir, uid, gid);
  }
  const data = path.join(dir, "data");
  try {
    // C.UTF-8 sorts by code point, as SQLite's BINARY collation does.
    await pgTool("initdb", [
      "-D",
      data,
      "-A",
      "trust",
      "-U",
      "postgres",
      "-E",
      "UTF8",
      "--locale=C.UTF-8",
      "--no-sync",
      "--no-instructions",
    ]);
    let port = 0;
    let options = "";
    const start = () => pgTool("pg_ctl", ["-D", data, "-o", options, "-l", path.join(dir, "log"), "-w", "-t", "120", "start"]);
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      options = [
        `-p ${port}`,
        `-k ${dir}`,
        "-c listen_addresses=127.0.0.1",
        ...(durable ? [] : ["-c fsync=off", "-c full_page_writes=off"]),
        "-c synchronous_commit=off",
        // Every test file runs its own APIs, each with its own pool, several files at once.
        "-c max_connections=300",
        ...settings.map((setting) => `-c ${setting}`),
      ].join(" ");
      try {
        await start();
        break;
      } catch (error) {
        // Another process took the port between freePort and the server's bind.
        if (attempt >= 3) throw error;
      }
    }
    return {
      adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
      port,
      halt: () => pgTool("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "120", "stop"]),
      resume: start,
      stop: async () => {
        try {
          // A halted server is already down.
          await pgTool("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]).catch((error: unknown) => {
            if (!existsSync(path.join(data, "postmaster.pid"))) return;
            throw error;
          });
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
