/**
 * Whole Weatherbot instances, each in its own process (instance-process.ts), on one store:
 * started together, talked to over HTTP and WebSocket on their ports, ticked through stdin,
 * killed or stopped one by one. States are waited for as in engine-fixture.ts.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import type { TypedDocumentNode } from "@urql/core";
import { print } from "graphql";
import { driveInstance, warningsEnv, type EngineStore } from "./engine-fixture";
import { plainKysely } from "./test-database";

export const INSTANCE_ENTRY = path.resolve("tests/support/instance-process.ts");

export type AppInstance = ReturnType<typeof startAppInstance>;

export function startAppInstance(store: EngineStore, weatherUrl: string, now: string, options: { id: string; leaseMs: number }) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", INSTANCE_ENTRY, store.dataDir, weatherUrl, now, options.id, String(options.leaseMs)],
    { stdio: ["pipe", "pipe", "inherit"], env: { ...process.env, DATABASE_URL: store.databaseUrl ?? "", ...warningsEnv(weatherUrl) } },
  );
  const driven = driveInstance(child, options.id);
  const readyLine = () => driven.lines.find((line) => line.startsWith("ready "));
  const port = () => {
    const line = readyLine();
    if (!line) throw new Error(`instance ${options.id} is not ready`);
    return Number(line.slice("ready ".length));
  };
  const url = () => `http://127.0.0.1:${port()}/graphql`;
  return {
    ...driven,
    /** Waits until it listens and is registered with the others. */
    ready: () => driven.until(() => readyLine() !== undefined, "ready"),
    port,
    /** Its /graphql over HTTP (ws: for the WebSocket). */
    url,
    /** A GraphQL request over HTTP (a typed document, answered with its result type), with the token as a bearer if given. */
    async gql<T, V extends Record<string, unknown>>(document: TypedDocumentNode<T, V>, variables = {} as V, token?: string) {
      const response = await fetch(url(), {
        method: "POST",
        headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query: print(document), variables }),
      });
      return (await response.json()) as { data?: T | null; errors?: Array<{ message: string; extensions?: { code?: string } }> };
    },
  };
}

/** `count` instances named instance-A, instance-B, …, each ready (listening and registered). */
export async function startAppInstances(store: EngineStore, weatherUrl: string, now: string, count: number, leaseMs: number) {
  const started = Array.from({ length: count }, (_, index) =>
    startAppInstance(store, weatherUrl, now, { id: `instance-${String.fromCharCode(65 + index)}`, leaseMs }),
  );
  try {
    await Promise.all(started.map((instance) => instance.ready()));
  } catch (error) {
    await Promise.all(started.map((instance) => instance.kill()));
    throw error;
  }
  return started;
}

/** Polls until `condition` holds: a state, not a time (the machine may be loaded); `timeoutMs` is only a guard. */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until no instance holds a lease on any shard any more (a killed instance's has run out). */
export async function waitForLeasesToRunOut(store: EngineStore) {
  const database = plainKysely<{ engine_shards: { lease_until: string | null } }>(
    store.databaseUrl ?? path.join(store.dataDir, "weatherbot.sqlite"),
  );
  try {
    await waitFor(async () => {
      const row = await database
        .selectFrom("engine_shards")
        .select((eb) => eb.fn.max("lease_until").as("until"))
        .executeTakeFirst();
      const until = row?.until ?? null;
      return until === null || Date.parse(until) < Date.now();
    }, "the leases to run out");
  } finally {
    await database.destroy();
  }
}
