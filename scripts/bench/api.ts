/**
 * API throughput: `me { places { weather { current daily } } }` for a user with 10
 * places, warm cache, 50 connections, against the production server; beside a bare
 * graphql-yoga hello-world on the same machine. The two are measured in turns, ROUNDS
 * times each, and each figure is the median of its rounds: this machine's speed drifts
 * between runs, and turns give both the same drift.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { createSession } from "../../app/api/auth/sessions.server";
import { databaseTarget, openDatabase } from "../../app/api/db/database.server";
import { defaultSettings } from "../../app/api/db/settings-rows";
import { freePort, ROOT, startAppServer } from "../../e2e/support/app-server";
import { startFakeOpenMeteo } from "../../tests/fakes/open-meteo";
import { startQuietWarnings } from "./warning-services";
import type { BenchDatabaseKind, BenchDatabases, BenchStore } from "./databases";
import { runEach, runLoad, type LoadResult } from "./load";
import { graphql } from "./graphql";
import { median } from "./median";

const CONNECTIONS = 50;
const DURATION_MS = 5_000;
const ROUNDS = 3;
export const QUERY = `{ me { places { weather { current { temperature condition } daily { date temperatureMax temperatureMin } } } } }`;

type ApiFigures = LoadResult & { samples: LoadResult[] };

function summary(samples: LoadResult[]): ApiFigures {
  return {
    requests: median(samples.map((sample) => sample.requests)),
    errors: samples.reduce((sum, sample) => sum + sample.errors, 0),
    rps: median(samples.map((sample) => sample.rps)),
    p50: median(samples.map((sample) => sample.p50)),
    p99: median(samples.map((sample) => sample.p99)),
    samples,
  };
}

export async function startHelloYoga() {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts/bench/hello-yoga.ts")], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve) => child.stdout!.once("data", () => resolve()));
  return { url: `http://127.0.0.1:${port}/graphql`, pid: child.pid!, stop: () => child.kill("SIGTERM") };
}

/** Signs a benchmark user up on the API at `url`; returns their token. */
export async function signUpBenchUser(url: string, email: string): Promise<string> {
  const { signUp } = await graphql(
    url,
    `
      mutation ($email: String!) {
        signUp(email: $email, password: "benchmark pass") {
          token
        }
      }
    `,
    { email },
  );
  return signUp.token as string;
}

/** Signs a benchmark user up on the API at `url` and gives them 10 places; returns their token. */
export async function signUpWithPlaces(url: string, email = "bench@example.com"): Promise<string> {
  const token = await signUpBenchUser(url, email);
  for (let i = 0; i < 10; i++) {
    await graphql(
      url,
      `
        mutation ($lat: Float!) {
          addPlace(latitude: $lat, longitude: 8.5, label: "P") {
            id
          }
        }
      `,
      { lat: 40 + i },
      token,
    );
  }
  return token;
}

export type ApiBenchFigures = Record<BenchDatabaseKind, ApiFigures> & { baseline: ApiFigures };

/**
 * The benchmark query on the production server over each database, beside bare yoga: in
 * each round every one of them in turn, so that all see the same drift of the machine.
 */
export async function benchApi(databases: BenchDatabases): Promise<ApiBenchFigures> {
  const weather = await startFakeOpenMeteo();
  const warnings = await startQuietWarnings();
  const kinds: BenchDatabaseKind[] = ["SQLite", "PostgreSQL"];
  const stores = await Promise.all(kinds.map((kind) => databases.fresh(kind)));
  const servers = await Promise.all(
    stores.map((store) =>
      startAppServer({
        TEST_HOOKS: "0",
        OPEN_METEO_FORECAST_URL: weather.url,
        OPEN_METEO_GEOCODING_URL: weather.url,
        ...warnings.env,
        ...store.env,
      }),
    ),
  );
  const hello = await startHelloYoga();
  try {
    const targets = await Promise.all(
      servers.map(async (server) => {
        const url = `${server.baseURL}/graphql`;
        const token = await signUpWithPlaces(url);
        return { url, body: JSON.stringify({ query: QUERY }), headers: { authorization: `Bearer ${token}` }, connections: CONNECTIONS };
      }),
    );
    const baseline = { url: hello.url, body: JSON.stringify({ query: "{ hello }" }), connections: CONNECTIONS };
    // Warm-up: JIT, the forecast cache, the result cache.
    for (const target of [...targets, baseline]) await runLoad({ ...target, durationMs: 1_000 });
    const samples = [...targets, baseline].map(() => [] as LoadResult[]);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [index, target] of [...targets, baseline].entries())
        samples[index]!.push(await runLoad({ ...target, durationMs: DURATION_MS }));
    }
    return { SQLite: summary(samples[0]!), PostgreSQL: summary(samples[1]!), baseline: summary(samples[2]!) };
  } finally {
    hello.stop();
    await Promise.all(servers.map((server) => server.stop()));
    await Promise.all(stores.map((store) => store.remove()));
    await weather.close();
    await warnings.close();
  }
}

const COLD_USERS = 1_000;
const COLD_PLACES_PER_USER = 10;

/**
 * The cold path: COLD_USERS users, each asking the benchmark query once, so that no answer
 * cached for a user helps (forecasts are shared by place, as in real use: a first user warms
 * them). Users, places and sessions are written straight to the database beforehand.
 */
export async function benchColdApi(store: BenchStore): Promise<LoadResult> {
  const weather = await startFakeOpenMeteo();
  const warnings = await startQuietWarnings();
  const tokens = await seedColdUsers(store, COLD_USERS + 1);
  const server = await startAppServer({
    TEST_HOOKS: "0",
    OPEN_METEO_FORECAST_URL: weather.url,
    OPEN_METEO_GEOCODING_URL: weather.url,
    ...warnings.env,
    ...store.env,
  });
  try {
    const url = `${server.baseURL}/graphql`;
    const body = JSON.stringify({ query: QUERY });
    const [warmUp, ...users] = tokens;
    await graphql(url, QUERY, {}, warmUp);
    return await runEach({
      url,
      requests: users.map((token) => ({ body, headers: { authorization: `Bearer ${token}` } })),
      connections: CONNECTIONS,
    });
  } finally {
    await server.stop();
    await weather.close();
    await warnings.close();
  }
}

async function seedColdUsers(store: BenchStore, count: number): Promise<string[]> {
  const { db } = await openDatabase(databaseTarget(store.dataDir, store.databaseUrl));
  const now = new Date();
  const created = now.toISOString();
  const tokens: string[] = [];
  try {
    await db.transaction().execute(async (trx) => {
      for (let u = 0; u < count; u++) {
        const userId = randomUUID();
        await trx
          .insertInto("users")
          .values({ id: userId, email: `cold${u}@bench.example`, password_hash: "-", created_at: created })
          .execute();
        await trx
          .insertInto("settings")
          .values(defaultSettings(userId, "EN_US", "Europe/Berlin"))
          .execute();
        await trx
          .insertInto("places")
          .values(
            Array.from({ length: COLD_PLACES_PER_USER }, (_, p) => ({
              id: randomUUID(),
              user_id: userId,
              label: `P${p}`,
              name: `P${p}`,
              admin1: null,
              country_code: null,
              latitude: 40 + p,
              longitude: 8.5,
              time_zone: "Europe/Berlin",
              position: p,
              created_at: created,
            })),
          )
          .execute();
        tokens.push((await createSession(trx, userId, now)).token);
      }
    });
  } finally {
    await db.destroy();
  }
  return tokens;
}
