/**
 * API throughput: `me { places { weather { current daily } } }` for a user with 10
 * places, warm cache, 50 connections, against the production server; beside a bare
 * graphql-yoga hello-world measured in the same run on the same machine.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { freePort, ROOT, startAppServer } from "../../e2e/support/app-server";
import { startFakeOpenMeteo } from "../../tests/fakes/open-meteo";
import { runLoad, type LoadResult } from "./load";
import { graphql } from "./graphql";

const CONNECTIONS = 50;
const DURATION_MS = 5_000;
const QUERY = `{ me { places { weather { current { temperature condition } daily { date temperatureMax temperatureMin } } } } }`;

async function helloYoga(): Promise<LoadResult> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts/bench/hello-yoga.ts")], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve) => child.stdout!.once("data", () => resolve()));
  try {
    await runLoad({ url: `http://127.0.0.1:${port}/graphql`, body: JSON.stringify({ query: "{ hello }" }), connections: CONNECTIONS, durationMs: 1_000 });
    return await runLoad({ url: `http://127.0.0.1:${port}/graphql`, body: JSON.stringify({ query: "{ hello }" }), connections: CONNECTIONS, durationMs: DURATION_MS });
  } finally {
    child.kill("SIGTERM");
  }
}

export async function benchApi() {
  const weather = await startFakeOpenMeteo();
  const server = await startAppServer({ TEST_HOOKS: "0", OPEN_METEO_FORECAST_URL: weather.url, OPEN_METEO_GEOCODING_URL: weather.url });
  try {
    const url = `${server.baseURL}/graphql`;
    const { signUp } = await graphql(url, `mutation { signUp(email: "bench@example.com", password: "benchmark pass") { token } }`);
    for (let i = 0; i < 10; i++) {
      await graphql(url, `mutation ($lat: Float!) { addPlace(latitude: $lat, longitude: 8.5, label: "P") { id } }`, { lat: 40 + i }, signUp.token);
    }
    const body = JSON.stringify({ query: QUERY });
    const headers = { authorization: `Bearer ${signUp.token}` };
    await runLoad({ url, body, headers, connections: CONNECTIONS, durationMs: 1_000 }); // warm-up
    const app = await runLoad({ url, body, headers, connections: CONNECTIONS, durationMs: DURATION_MS });
    const baseline = await helloYoga();
    return { app, baseline, upstreamCalls: weather.calls.forecast };
  } finally {
    await server.stop();
    await weather.close();
  }
}
