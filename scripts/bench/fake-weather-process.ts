import { spawn } from "node:child_process";
import path from "node:path";
import { freePort, ROOT } from "../../e2e/support/app-server";

/** The Open-Meteo fake as a separate process (`npm run fake:weather`), with its call counters over HTTP. */
export async function startFakeWeatherProcess() {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "tests/fakes/run-open-meteo.ts")], {
    env: { ...process.env, FAKE_WEATHER_PORT: String(port) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve) => child.stdout!.once("data", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    async calls(): Promise<{ forecast: number; geocoding: number }> {
      const read = async () =>
        ((await (await fetch(`${url}/__control/calls`)).json()) as { calls: { forecast: number; geocoding: number } }).calls;
      // Once more on a fresh socket: on a loaded machine the kept-alive one may be closed by the fake as it is reused.
      return read().catch(read);
    },
    async close() {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}
