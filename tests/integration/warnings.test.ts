import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { WARNINGS_WAIT_MS } from "~/api/schema/warnings.server";
import { nwsFeatures, startFakeOfficialWarnings, type FakeOfficialWarnings } from "../fakes/official-warnings";
import { codes, testApis, type TestApi } from "../support/api-server";
import {
  TestWarningsAddAtDocument as ADD_AT,
  TestWarningsAddFoundDocument as ADD_FOUND,
  TestWarningsFindDocument as FIND,
  TestWarningsLanguageDocument as LANGUAGE,
  TestWarningsPlacesDocument as PLACES,
  TestWarningsTooManyDocument as TOO_MANY,
  type Language,
} from "../support/documents.generated";
import { frenchAvalancheInForce, TORNADO_WATCH_FIXTURE, TORNADO_WATCH_ISSUED, tornadoWatchInForce } from "../support/warnings-in-force";

/**
 * Place.warnings over the real API and database, the layer pointed at the loopback fake of the NWS and MeteoAlarm:
 * real documents in force (their times moved to the test's clock), in the owner's language, credited; a place no
 * service covers; a service failing or slow (never a GraphQL error, never cached); and cached answers that end with the
 * warnings' freshness.
 */

const api = testApis();
let warnings: FakeOfficialWarnings;

/** New York in the Open-Meteo fake's geocoding (40.71427, -74.00597): the NWS is asked for the point rounded to 0.01°. */
const NEW_YORK_POINT = "40.71,-74.01";

beforeAll(async () => {
  warnings = await startFakeOfficialWarnings();
});
afterAll(() => warnings.close());
beforeEach(() => warnings.reset());

/** An account with places found by name in the fake's geocoding (label = the name), in `language`. */
async function account(t: TestApi, names: string[], language: Language = "EN_US") {
  const token = await t.signUp();
  if (language !== "EN_US") await t.gql(LANGUAGE, { language }, { token });
  for (const name of names) {
    const found = await t.gql(FIND, { query: name }, { token });
    await t.gql(ADD_FOUND, { id: found.data!.searchLocations[0]!.id, label: name }, { token });
  }
  return token;
}

async function placesOf(t: TestApi, token: string) {
  const result = await t.gql(PLACES, {}, { token });
  expect(result.errors).toBeUndefined();
  return new Map(result.data!.me!.places.map((place) => [place.label, place]));
}

describe("a place's official warnings", () => {
  it("gives a US place the NWS warning in force, credited, every CAP field, once per area for everyone there", async () => {
    const now = new Date();
    warnings.nws.setActive(NEW_YORK_POINT, [tornadoWatchInForce(now)]);
    const t = await api({ warnings });
    const token = await account(t, ["New York"]);
    const york = (await placesOf(t, token)).get("New York")!;
    expect(york.warnings).toMatchObject({ coverage: "COVERED", service: "US National Weather Service", stale: false, count: 1 });
    expect(Date.parse(york.warnings.fetchedAt!)).toBeGreaterThanOrEqual(now.getTime() - 1000);
    expect(york.warnings.items).toEqual([
      {
        id: `nws:${TORNADO_WATCH_ISSUED}`,
        event: "Tornado Watch",
        severity: "EXTREME",
        urgency: "FUTURE",
        certainty: "POSSIBLE",
        headline: expect.stringMatching(/^Tornado Watch issued November 25 .* by NWS Mobile AL$/),
        description: expect.stringContaining("TORNADO WATCH 641"),
        instruction: null,
        area: "Butler, AL; Clarke, AL; Conecuh, AL; Crenshaw, AL; Monroe, AL; Washington, AL; Wilcox, AL",
        match: "POINT",
        onset: new Date(now.getTime() - 3_600_000).toISOString().replace(/\.\d{3}Z$/, ".000Z"),
        expires: new Date(now.getTime() + 6 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, ".000Z"),
        service: "US National Weather Service",
        language: "en-US",
        web: "http://www.weather.gov",
      },
    ]);
    // A second user in the same grid cell: the layer's answer is shared, the NWS asked once.
    const other = await account(t, ["New York"], "DE_DE");
    expect((await placesOf(t, other)).get("New York")!.warnings.count).toBe(1);
    expect(warnings.nws.requests.map((request) => request.point)).toEqual([NEW_YORK_POINT]);
  });

  it("gives a French place Météo-France's warning in the owner's language, else English, and follows a change of language", async () => {
    warnings.meteoAlarm.setDocuments("france", [frenchAvalancheInForce(new Date())]);
    const t = await api({ warnings });
    const english = await account(t, ["Paris"]);
    const inEnglish = (await placesOf(t, english)).get("Paris")!.warnings;
    expect(inEnglish).toMatchObject({ coverage: "COVERED", service: "MeteoAlarm", count: 1 });
    expect(inEnglish.items[0]).toMatchObject({
      event: "Moderate avalanches warning",
      severity: "MODERATE",
      certainty: "LIKELY",
      language: "en-GB",
      service: "MeteoAlarm / METEO-FRANCE",
      instruction: expect.stringMatching(/^Be aware/),
      // Météo-France's documents name NUTS3 areas only: Paris learns of its country's warnings, with their areas.
      match: "COUNTRY",
      area: expect.stringContaining("Haute Savoie"),
    });

    // No German block: English.
    const german = await account(t, ["Paris"], "DE_DE");
    expect((await placesOf(t, german)).get("Paris")!.warnings.items[0]).toMatchObject({ language: "en-GB" });

    // French once the owner reads French: the cached answer ends with the settings it was read in.
    expect((await placesOf(t, english)).get("Paris")!.warnings.items[0]!.language).toBe("en-GB");
    await t.gql(LANGUAGE, { language: "FR_FR" }, { token: english });
    expect((await placesOf(t, english)).get("Paris")!.warnings.items[0]).toMatchObject({
      event: "Vigilance jaune avalanches",
      language: "fr-FR",
      instruction: expect.stringMatching(/^Soyez attentifs/),
    });
    expect(warnings.meteoAlarm.feedRequests).toEqual(["france"]);
  });

  it("says plainly when no service covers a place: outside every covered country, or its country unknown", async () => {
    const t = await api({ warnings });
    const token = await account(t, ["Sydney"]);
    await t.gql(ADD_AT, { lat: 52.52, lon: 13.41 }, { token });
    const places = await placesOf(t, token);
    for (const label of ["Sydney", "Pinned"]) {
      expect(places.get(label)!.warnings).toEqual({
        coverage: "NOT_COVERED",
        service: null,
        fetchedAt: null,
        stale: false,
        count: 0,
        items: [],
      });
    }
    expect(warnings.nws.requests).toEqual([]);
    expect(warnings.meteoAlarm.feedRequests).toEqual([]);
  });

  it("shows no warning the service has cancelled", async () => {
    const cancel = structuredClone(
      nwsFeatures(TORNADO_WATCH_FIXTURE).get("urn:oid:2.49.0.1.840.0.b65fb091e05fea08483f8f6b0c7c57f290315a18.001.1")!,
    ) as {
      properties: Record<string, unknown>;
    };
    // In force by its times (moved to the test's clock), cancelled by its type.
    Object.assign(cancel.properties, tornadoWatchInForce(new Date()).properties, { messageType: "Cancel", severity: "Minor" });
    warnings.nws.setActive(NEW_YORK_POINT, [cancel]);
    const t = await api({ warnings });
    const token = await account(t, ["New York"]);
    expect((await placesOf(t, token)).get("New York")!.warnings).toMatchObject({ coverage: "COVERED", count: 0, items: [] });
  });
});

describe("a service failing or slow", () => {
  it("is UNAVAILABLE with the service named, the rest of the answer whole, and never a GraphQL error", async () => {
    warnings.fail("nws", 503);
    warnings.fail("meteoalarm", "garbage");
    const t = await api({ warnings });
    const token = await account(t, ["New York", "Paris"]);
    const places = await placesOf(t, token);
    expect(places.get("New York")!.warnings).toMatchObject({ coverage: "UNAVAILABLE", service: "US National Weather Service", items: [] });
    expect(places.get("Paris")!.warnings).toMatchObject({ coverage: "UNAVAILABLE", service: "MeteoAlarm", items: [] });
    expect(places.get("Paris")!.weather.id).toBe(places.get("Paris")!.id);
  });

  it(`answers UNAVAILABLE after ${WARNINGS_WAIT_MS} ms, caches nothing, and has the warning on the next page once the service answers`, async () => {
    warnings.nws.setActive(NEW_YORK_POINT, [tornadoWatchInForce(new Date())]);
    const t = await api({ warnings });
    const token = await account(t, ["New York"]);
    const release = warnings.hold("nws");
    const started = Date.now();
    const waited = (await placesOf(t, token)).get("New York")!.warnings;
    expect(waited.coverage).toBe("UNAVAILABLE");
    expect(Date.now() - started).toBeGreaterThanOrEqual(WARNINGS_WAIT_MS - 50);
    release();
    await expect.poll(async () => (await placesOf(t, token)).get("New York")!.warnings.count).toBe(1);
    // The fetch that page left went on: nobody asked the NWS again.
    expect(warnings.nws.requests).toHaveLength(1);
  });
});

describe("cached answers", () => {
  it("end when a warning does, before the area's next refresh: a page after its end has it no more", async () => {
    let now = Date.now();
    const clock = () => new Date(now);
    // Ends in 2 minutes: before the layer's 5-minute refresh and the forecast's 15 minutes, within the hour.
    warnings.nws.setActive(NEW_YORK_POINT, [tornadoWatchInForce(clock(), { hours: 2 / 60 })]);
    const t = await api({ warnings, now: clock });
    const token = await account(t, ["New York"]);
    expect((await placesOf(t, token)).get("New York")!.warnings.count).toBe(1);
    expect((await placesOf(t, token)).get("New York")!.warnings.count).toBe(1);
    now += 3 * 60_000;
    expect((await placesOf(t, token)).get("New York")!.warnings).toMatchObject({ coverage: "COVERED", count: 0 });
    // The layer's answer was still fresh (5 minutes of the process's own time): only what was cached of it ended.
    expect(warnings.nws.requests).toHaveLength(1);
  });

  it("last no longer than the area's answer is shared", async () => {
    let now = Date.now();
    const clock = () => new Date(now);
    warnings.nws.setActive(NEW_YORK_POINT, [tornadoWatchInForce(clock())]);
    const t = await api({ warnings, now: clock });
    const token = await account(t, ["New York"]);
    const runs = vi.spyOn(t.api.services.warnings, "warningsFor");
    await placesOf(t, token);
    await placesOf(t, token);
    expect(runs).toHaveBeenCalledTimes(1);
    now += t.api.services.warnings.refreshMs + 1000;
    await placesOf(t, token);
    expect(runs).toHaveBeenCalledTimes(2);
  });

  it("refuses more items than a place can list", async () => {
    const t = await api({ warnings });
    const token = await account(t, ["Sydney"]);
    expect(codes(await t.gql(TOO_MANY, {}, { token }))).toEqual(["BAD_USER_INPUT"]);
  });
});
