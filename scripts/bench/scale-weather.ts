/**
 * The Open-Meteo fake for the engine-at-scale benchmark, in a process of its own (its work is the provider's, not the
 * engine's): its clock is the simulation's, set over stdin ("at <epoch ms>", answered "ok"), and each coordinate's
 * forecast changes every 15 simulated minutes in a phase of its own, so 1/15 of the places change each minute. Every
 * fourth version of a place has gusts of 75 km/h from 18:00 to 20:00 of the simulated day: the gust rules tell them.
 */
import { createInterface } from "node:readline";
import { startFakeOpenMeteo, type Scenario } from "../../tests/fakes/open-meteo";

let simulated = Date.parse(process.env.SCALE_START ?? "2026-06-01T06:00:00Z");
const DAY = Math.floor(simulated / 86_400_000) * 86_400;

/** Which version of its forecast a coordinate shows at the simulated minute: a new one every 15 minutes, phased. */
function version(latitude: number, longitude: number): number {
  const phase = (Math.imul(Math.round(latitude * 100), 73_856_093) ^ Math.imul(Math.round(longitude * 100), 19_349_663)) >>> 0;
  return Math.floor((simulated / 60_000 + (phase % 15)) / 15);
}

// SCALE_STATIC=1: a forecast that never changes (the rules' cost when nothing happens).
const still = process.env.SCALE_STATIC === "1";

const scenario: Scenario = (latitude, longitude, time) => {
  const shown = still ? 0 : version(latitude, longitude);
  const gusty = shown % 4 === 1 && time >= DAY + 18 * 3600 && time < DAY + 20 * 3600;
  // Each version differs a little everywhere (a model run moves every figure), so the rules see a change.
  return { wind_gusts_10m: gusty ? 75 : 20 + (shown % 5), weather_code: 3 };
};

const port = Number(process.env.FAKE_WEATHER_PORT);
const fake = await startFakeOpenMeteo({ port, now: () => new Date(simulated) });
fake.setScenario(scenario);
process.stdout.write(`ready ${fake.url}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  if (line.startsWith("at ")) simulated = Number(line.slice(3));
  else if (line === "calls") {
    // Requests, and the coordinates they asked for; the list is emptied so a long run does not hoard them.
    const coordinates = fake.forecastRequests.reduce((sum, request) => sum + request.length, 0);
    fake.forecastRequests.length = 0;
    process.stdout.write(`calls ${fake.calls.forecast} ${coordinates}\n`);
  }
  if (line.startsWith("at ")) process.stdout.write("ok\n");
}
await fake.close();
