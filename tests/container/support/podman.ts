import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * podman as these machines need it: runc (crun fails on their cgroups) and explicit limits (the defaults
 * are more than the machine lets a container have). PODMAN_RUNTIME names another runtime.
 */
export const PODMAN_GLOBAL = ["--runtime", process.env.PODMAN_RUNTIME ?? "runc"];
export const PODMAN_LIMITS = ["--ulimit", "nofile=20000:20000", "--ulimit", "nproc=32768:32768"];

/** Every container and volume a run makes carries this label (value: the run's id), so cleanup finds them all. */
export const RUN_LABEL = "weatherbot.container-test";

export async function podman(args: string[], { allowFailure = false } = {}): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run("podman", [...PODMAN_GLOBAL, ...args], { maxBuffer: 64 * 1024 * 1024 });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const { stdout = "", stderr = "", code } = error as { stdout?: string; stderr?: string; code?: number | string };
    if (allowFailure) return { stdout, stderr, code: typeof code === "number" ? code : 1 };
    throw new Error(`podman ${args.join(" ")} failed (${code}):\n${stdout}${stderr}`, { cause: error });
  }
}

/** Runs podman with its output streamed through `onLine`; rejects with the last lines when it fails. */
export function podmanStreamed(args: string[], onLine: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("podman", [...PODMAN_GLOBAL, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    const tail: string[] = [];
    let pending = "";
    const take = (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        tail.push(line);
        if (tail.length > 60) tail.shift();
        onLine(line);
      }
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`podman ${args.slice(0, 2).join(" ")} … exited ${code}:\n${tail.join("\n")}`)),
    );
  });
}

export type ContainerSpec = {
  name: string;
  image: string;
  runId: string;
  env?: Record<string, string>;
  /** `-p 127.0.0.1:PORT:3000`: the container on podman's own network, published on loopback. */
  publish?: number;
  /** The host's network: the app listens on the host's loopback (PORT in env) and reaches the host's services. */
  hostNetwork?: boolean;
  /** A named volume mounted at /data, the image's data directory. */
  volume?: string;
};

/** Starts a container of the app (detached); returns its name. */
export async function runContainer(spec: ContainerSpec): Promise<string> {
  const args = ["run", "--detach", "--name", spec.name, "--label", `${RUN_LABEL}=${spec.runId}`, ...PODMAN_LIMITS];
  if (spec.hostNetwork) args.push("--network", "host");
  if (spec.publish) args.push("--publish", `127.0.0.1:${spec.publish}:3000`);
  if (spec.volume) args.push("--volume", `${spec.volume}:/data`);
  for (const [key, value] of Object.entries(spec.env ?? {})) args.push("--env", `${key}=${value}`);
  args.push(spec.image);
  await podman(args);
  return spec.name;
}

export async function createVolume(name: string, runId: string): Promise<string> {
  await podman(["volume", "create", "--label", `${RUN_LABEL}=${runId}`, name]);
  return name;
}

/** The image's HEALTHCHECK, run now (podman runs it on a timer only under systemd): whether it passed. */
export async function healthcheck(name: string): Promise<boolean> {
  return (await podman(["healthcheck", "run", name], { allowFailure: true })).code === 0;
}

export async function containerLogs(name: string): Promise<string> {
  const { stdout, stderr } = await podman(["logs", name], { allowFailure: true });
  return stdout + stderr;
}

/** Whether the container is still running (it may have exited on a bad configuration). */
export async function isRunning(name: string): Promise<boolean> {
  const { stdout } = await podman(["inspect", "--format", "{{.State.Running}}", name], { allowFailure: true });
  return stdout.trim() === "true";
}

/** Stops the container the way an orchestrator does (SIGTERM, then SIGKILL after `timeoutSeconds`). */
export async function stopContainer(name: string, timeoutSeconds = 15): Promise<void> {
  await podman(["stop", "--time", String(timeoutSeconds), name]);
}

/** Removes what runs labelled `runId` made: containers, then volumes. */
export async function removeRun(runId: string): Promise<void> {
  const filter = `label=${RUN_LABEL}=${runId}`;
  const { stdout } = await podman(["ps", "--all", "--quiet", "--filter", filter], { allowFailure: true });
  const ids = stdout.split("\n").filter(Boolean);
  if (ids.length) await podman(["rm", "--force", "--time", "0", ...ids], { allowFailure: true });
  const volumes = await podman(["volume", "ls", "--quiet", "--filter", filter], { allowFailure: true });
  const names = volumes.stdout.split("\n").filter(Boolean);
  if (names.length) await podman(["volume", "rm", "--force", ...names], { allowFailure: true });
}

/** A run's id: the test process's pid first, so that a later run can tell whether the run is still going. */
export const newRunId = () => `${process.pid}-${Date.now().toString(36)}`;

function runIsGone(runId: string): boolean {
  const pid = Number(runId.split("-")[0]);
  if (!Number.isInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

/** Removes what interrupted earlier runs left behind (their process is gone); a run still going keeps its containers. */
export async function removeStaleRuns(): Promise<void> {
  const runs = new Set<string>();
  for (const kind of [
    ["ps", "--all", "--format", `{{index .Labels "${RUN_LABEL}"}}`],
    ["volume", "ls", "--format", `{{index .Labels "${RUN_LABEL}"}}`],
  ]) {
    const { stdout } = await podman([...kind, "--filter", `label=${RUN_LABEL}`], { allowFailure: true });
    for (const runId of stdout.split("\n").filter(Boolean)) runs.add(runId.trim());
  }
  for (const runId of runs) if (runIsGone(runId)) await removeRun(runId);
}
