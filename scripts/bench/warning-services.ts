import { startFakeOfficialWarnings } from "../../tests/fakes/official-warnings";

/**
 * The official-warning services for a benchmark's app server: the loopback fake, with no warning
 * in force (the engine benchmark serves its own). A server started without them would ask the real
 * NWS and MeteoAlarm for its places.
 */
export async function startQuietWarnings() {
  const fake = await startFakeOfficialWarnings();
  return { fake, env: { NWS_ALERTS_URL: fake.url, METEOALARM_URL: fake.url }, close: () => fake.close() };
}
