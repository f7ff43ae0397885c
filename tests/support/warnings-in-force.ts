import { deriveCap, nwsFeatures, warningsFixture } from "../fakes/official-warnings";

/*
 * Real warnings (tests/fixtures/warnings) in force at a test's clock: the documents were sent years before the pinned
 * TEST_NOW, and the warnings layer leaves out a warning whose hazard has ended. As the fixtures' README asks of a
 * derived message, only what the test needs changes, and it says so: the times (sent an hour before `now`, in force
 * until `hours` after it) and, for the card's tests, where it is.
 */

export const TORNADO_WATCH_FIXTURE = "nws/mobile-al-tornado-watch.json";
/** The watch as the NWS updated it (Extreme, the whole chain referenced): the one in force before it was cancelled. */
export const TORNADO_WATCH_UPDATED = "urn:oid:2.49.0.1.840.0.cfc6c16f6a710f26ac1510695362885161a510a0.002.1";
/** The first message of its chain: the warning's id is the service and this. */
export const TORNADO_WATCH_ISSUED = "urn:oid:2.49.0.1.840.0.f95cf0f79f72666950dffd7631c8e3ea59badf98.001.1";

/** An ISO time as CAP writes it (no "Z": an offset). */
const capTime = (at: Date) => at.toISOString().replace(/\.\d{3}Z$/, "+00:00");

/** The NWS feature of the updated Tornado Watch, in force from an hour before `now` for `hours`; `areaDesc` to move it. */
export function tornadoWatchInForce(now: Date, { hours = 6, areaDesc }: { hours?: number; areaDesc?: string } = {}) {
  const feature = structuredClone(nwsFeatures(TORNADO_WATCH_FIXTURE).get(TORNADO_WATCH_UPDATED)!) as {
    properties: Record<string, unknown>;
  };
  const sent = capTime(new Date(now.getTime() - 3_600_000));
  const ends = capTime(new Date(now.getTime() + hours * 3_600_000));
  Object.assign(feature.properties, { sent, effective: sent, onset: sent, expires: ends, ends });
  if (areaDesc) feature.properties.areaDesc = areaDesc;
  return feature;
}

/**
 * Météo-France's avalanche warning (fr-FR and en-GB blocks, NUTS3 areas only), as a first message (`Alert`, no
 * references) sent an hour before `now`, in force for `hours`.
 */
export function frenchAvalancheInForce(now: Date, { hours = 6, identifier = "2.49.0.0.250.0.FR.20310115090000.000001" } = {}) {
  const sent = capTime(new Date(now.getTime() - 3_600_000));
  const xml = deriveCap(warningsFixture("meteoalarm/france-avalanche-update.xml"), {
    identifier,
    sent,
    msgType: "Alert",
    references: null,
  });
  return xml
    .replace(/<(effective|onset)>[^<]*<\/\1>/g, (_, tag: string) => `<${tag}>${sent}</${tag}>`)
    .replace(/<expires>[^<]*<\/expires>/g, `<expires>${capTime(new Date(now.getTime() + hours * 3_600_000))}</expires>`);
}
