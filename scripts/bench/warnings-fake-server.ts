/**
 * The official-warnings fake in a process of its own for the engine benchmark (its work is not the
 * engine's), serving warnings in force now: the NWS Tornado Watch of the fixtures for every US point,
 * and Météo-France's avalanche warning for France, their times moved to the present. Prints its URL;
 * answers "counts" on stdin with its request counts as JSON.
 */
import { createInterface } from "node:readline";
import { nwsFeatures, startFakeOfficialWarnings } from "../../tests/fakes/official-warnings";
import { frenchAvalancheInForce } from "../../tests/support/warnings-in-force";

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "+00:00");
const now = Date.now();

const fake = await startFakeOfficialWarnings({ slowMs: 1 });
const [watch] = [...nwsFeatures("nws/mobile-al-tornado-watch.json").values()].filter(
  (feature) => (feature.properties as { messageType: string }).messageType === "Alert",
);
const properties = watch!.properties as Record<string, unknown>;
fake.nws.setActive("*", [
  {
    ...watch,
    properties: {
      ...properties,
      sent: iso(now - HOUR),
      effective: iso(now - HOUR),
      onset: iso(now - HOUR),
      expires: iso(now + 6 * HOUR),
      ends: iso(now + 6 * HOUR),
    },
  },
]);
fake.meteoAlarm.setDocuments("france", [frenchAvalancheInForce(new Date(now), { identifier: "2.49.0.0.250.0.FR.bench.1" })]);

console.log(fake.url);
for await (const line of createInterface({ input: process.stdin })) {
  if (line === "counts") {
    console.log(
      JSON.stringify({
        nws: fake.nws.requests.length,
        feeds: fake.meteoAlarm.feedRequests.length,
        documents: fake.meteoAlarm.documentRequests.length,
      }),
    );
  }
}
await fake.close();
