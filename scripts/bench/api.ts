/**
 * API throughput: `me { places { weather { current daily } } }` for a user with 10
 * places, warm cache, 50 connections, against the production server; beside a bare
 * graphql-yoga hello-world on the same machine. The two are measured in turns, ROUNDS
 * times each, and each figure is the median of its rounds: this machine's speed drifts
 * between runs, and turns give both the same drift.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { freePort, ROOT, startAppServer } from "../../e2e/support/app-server";
import { startFakeOpenMeteo } from "../../tests/fakes/open-meteo";
import { runLoad, type LoadResult } from "./load";
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

/** Signs a benchmark user up on the API at `url` and gives them 10 places; returns their token. */
export async function signUpWithPlaces(url: string, email = "bench@example.com"): Promise<string> {
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
      signUp.token,
    );
  }
  return signUp.token as string;
}

export async function benchApi() {
  const weather = await startFakeOpenMeteo();
  const server = await startAppServer({ TEST_HOOKS: "0", OPEN_METEO_FORECAST_URL: weather.url, OPEN_METEO_GEOCODING_URL: weather.url });
  const hello = await startHelloYoga();
  try {
    const url = `${server.baseURL}/graphql`;
    const token = await signUpWithPlaces(url);
    const app = {
      url,
      body: JSON.stringify({ query: QUERY }),
      headers: { authorization: `Bearer ${token}` },
      connections: CONNECTIONS,
    };
    const baseline = { url: hello.url, body: JSON.stringify({ query: "{ hello }" }), connections: CONNECTIONS };
    await runLoad({ ...app, durationMs: 1_000 }); // warm-up
    await runLoad({ ...baseline, durationMs: 1_000 });
    const appSamples: LoadResult[] = [];
    const baselineSamples: LoadResult[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      appSamples.push(await runLoad({ ...app, durationMs: DURATION_MS }));
      baselineSamples.push(await runLoad({ ...baseline, durationMs: DURATION_MS }));
    }
    return { app: summary(appSamples), baseline: summary(baselineSamples), upstreamCalls: weather.calls.forecast };
  } finally {
    hello.stop();
    await server.stop();
    await weather.close();
  }
}
