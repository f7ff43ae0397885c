import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ApiLogger } from "~/api/log.server";
import { createOfficialWarnings, type OfficialWarningsOptions, type WarningsOutcome } from "~/api/warnings/official-warnings.server";
import {
  deriveCap,
  frenchAvalancheChain,
  nwsFeatures,
  startFakeOfficialWarnings,
  warningsFixture,
  type FakeOfficialWarnings,
} from "../fakes/official-warnings";

/**
 * The official-warnings layer against the loopback fake of both services, over real HTTP:
 * real documents issued, updated and cancelled; one fetch per area shared by everyone there;
 * timeouts, outages (logged once), hostile bodies, and areas that never mix.
 */

const TORNADO = "nws/mobile-al-tornado-watch.json";
const ISSUED = "urn:oid:2.49.0.1.840.0.f95cf0f79f72666950dffd7631c8e3ea59badf98.001.1";
const UPDATED = "urn:oid:2.49.0.1.840.0.cfc6c16f6a710f26ac1510695362885161a510a0.002.1";
const CANCELLED = "urn:oid:2.49.0.1.840.0.b65fb091e05fea08483f8f6b0c7c57f290315a18.001.1";
/** Chatom, Washington County, Alabama: inside the watch. */
const CHATOM = { latitude: 31.4652, longitude: -88.2545, countryCode: "US", name: "Chatom", admin1: "Alabama" };
const CHATOM_POINT = "31.47,-88.25";
/** During the watch (the documents' own time): the engine's clock for these tests. */
const DURING_WATCH = new Date("2025-11-25T22:30:00Z");

const ANNECY = { latitude: 45.8992, longitude: 6.1294, countryCode: "FR", name: "Annecy", admin1: "Auvergne-Rhône-Alpes" };
const PARIS = { latitude: 48.8534, longitude: 2.3488, countryCode: "FR", name: "Paris", admin1: "Île-de-France" };
const BEFORE_FRENCH_EXPIRY = new Date("2022-12-07T05:00:00Z");

type Line = { level: "error" | "warn" | "info"; message: string };

function collectingLog() {
  const lines: Line[] = [];
  const log: ApiLogger = {
    error: (_fields, message) => lines.push({ level: "error", message }),
    warn: (_fields, message) => lines.push({ level: "warn", message }),
    info: (_fields, message) => lines.push({ level: "info", message }),
    debug: () => {},
  };
  return { log, lines, count: (level: Line["level"]) => lines.filter((line) => line.level === level).length };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A clock that starts at `at` and runs on (the layer ages what it keeps on the clock it is given). */
const runningFrom = (at: Date | string) => {
  const started = performance.now();
  return () => new Date(new Date(at).getTime() + (performance.now() - started));
};

let fake: FakeOfficialWarnings;
let outside: string[];

/** A fetch that records any request leaving the fake (a link followed to another host would show here). */
const guardedFetch: typeof fetch = (input, init) => {
  const url = String(input instanceof Request ? input.url : input);
  if (!url.startsWith(fake.url)) outside.push(url);
  return fetch(input, init);
};

function layer(overrides: Partial<OfficialWarningsOptions> = {}) {
  const logs = collectingLog();
  const warnings = createOfficialWarnings({
    env: { NWS_ALERTS_URL: fake.url, METEOALARM_URL: fake.url, VAPID_SUBJECT: "mailto:ops@weatherbot.example" },
    log: logs.log,
    fetch: guardedFetch,
    retryDelayMs: 0,
    now: runningFrom(DURING_WATCH),
    ...overrides,
  });
  return { warnings, logs };
}

function okWarnings(outcome: WarningsOutcome) {
  if (outcome.status !== "ok") throw new Error(`expected warnings, got ${JSON.stringify(outcome)}`);
  return outcome.warnings;
}

beforeAll(async () => {
  fake = await startFakeOfficialWarnings({ slowMs: 3000, hugeBytes: 4 * 1024 * 1024 });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  outside = [];
});

describe("the NWS over HTTP", () => {
  it("announces a real watch issued, updated and cancelled under one id, and names itself to the NWS", async () => {
    const features = nwsFeatures(TORNADO);
    const { warnings } = layer({ refreshMs: 1 });
    const seen = [];
    for (const ids of [[ISSUED], [UPDATED], [CANCELLED], []]) {
      fake.nws.setActive(
        CHATOM_POINT,
        ids.map((id) => features.get(id)),
      );
      await pause(5);
      seen.push(okWarnings(await warnings.warningsFor(CHATOM, "de-DE")));
    }
    expect(seen.map((list) => list.map((warning) => [warning.id, warning.messageType, warning.severity]))).toEqual([
      [[`nws:${ISSUED}`, "Alert", "Extreme"]],
      [[`nws:${ISSUED}`, "Update", "Extreme"]],
      [[`nws:${ISSUED}`, "Cancel", "Minor"]],
      [],
    ]);
    expect(seen[1]![0]).toMatchObject({
      service: "US National Weather Service",
      issuer: "NWS Mobile AL",
      event: "Tornado Watch",
      match: "point",
      language: "en-US",
      replaces: ISSUED,
      expires: "2025-11-26T00:00:00.000Z",
      area: "Butler, AL; Clarke, AL; Conecuh, AL; Crenshaw, AL; Monroe, AL; Washington, AL; Wilcox, AL",
    });
    expect(fake.nws.requests.map((request) => request.point)).toEqual(Array(4).fill(CHATOM_POINT));
    expect(fake.nws.requests[0]!.userAgent).toBe("(weatherbot, ops@weatherbot.example)");
  });

  it("drops a warning once its hazard has ended", async () => {
    fake.nws.setActive(CHATOM_POINT, [nwsFeatures(TORNADO).get(UPDATED)]);
    const { warnings } = layer({ now: runningFrom("2025-11-26T00:00:01Z") });
    expect(okWarnings(await warnings.warningsFor(CHATOM, "en-US"))).toEqual([]);
  });

  it("fetches each grid point once per interval for everyone there, joining requests already on their way", async () => {
    fake.nws.setActive("*", [nwsFeatures(TORNADO).get(ISSUED)]);
    const { warnings } = layer();
    const release = fake.hold("nws");
    const neighbours = [CHATOM, { ...CHATOM, latitude: 31.4681, longitude: -88.2479 }, { ...CHATOM, name: "Another user's Chatom" }];
    const pending = [
      ...neighbours.flatMap((place) => ["en-US", "de-DE", "fr-FR"].map((language) => warnings.warningsFor(place, language))),
      warnings.warningsFor({ ...CHATOM, latitude: 30.69, longitude: -88.04 }, "en-US"),
    ];
    await pause(50);
    release();
    const outcomes = await Promise.all(pending);
    expect(outcomes.every((outcome) => outcome.status === "ok" && outcome.warnings.length === 1)).toBe(true);
    expect(fake.nws.requests.map((request) => request.point).sort()).toEqual(["30.69,-88.04", CHATOM_POINT]);
    await warnings.warningsFor(CHATOM, "es-ES");
    expect(fake.nws.requests).toHaveLength(2);
  });

  it("never mixes areas: one point's failure and warnings stay its own", async () => {
    fake.nws.setActive(CHATOM_POINT, [nwsFeatures(TORNADO).get(ISSUED)]);
    fake.nws.setActive("40.71,-74.01", []);
    fake.fail("nws", 503, { point: "40.71,-74.01" });
    const { warnings } = layer();
    const [chatom, newYork] = await Promise.all([
      warnings.warningsFor(CHATOM, "en-US"),
      warnings.warningsFor({ latitude: 40.7128, longitude: -74.006, countryCode: "US" }, "en-US"),
    ]);
    expect(okWarnings(chatom)).toHaveLength(1);
    expect(newYork).toMatchObject({ status: "unavailable", serviceId: "nws", reason: "http-error" });
  });

  it("gives up on a slow answer at the timeout, as unavailable", async () => {
    fake.fail("nws", "slow");
    const { warnings } = layer({ timeoutMs: 300 });
    const started = performance.now();
    expect(await warnings.warningsFor(CHATOM, "en-US")).toMatchObject({ status: "unavailable", reason: "timeout" });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("logs an outage once, serves the last answer meanwhile, and notes the end once", async () => {
    fake.nws.setActive("*", [nwsFeatures(TORNADO).get(ISSUED)]);
    const { warnings, logs } = layer({ refreshMs: 1, failureRetryMs: 1 });
    const places = [
      CHATOM,
      { latitude: 30.69, longitude: -88.04, countryCode: "US" },
      { latitude: 32.37, longitude: -86.3, countryCode: "US" },
    ];
    const tick = () => Promise.all(places.map((place) => warnings.warningsFor(place, "en-US")));

    expect((await tick()).map((outcome) => outcome.status)).toEqual(["ok", "ok", "ok"]);
    fake.fail("nws", 503);
    for (let round = 0; round < 4; round++) {
      await pause(5);
      const outcomes = await tick();
      expect(outcomes.every((outcome) => outcome.status === "ok" && outcome.stale && outcome.warnings.length === 1)).toBe(true);
    }
    fake.recover("nws");
    for (let round = 0; round < 2; round++) {
      await pause(5);
      expect((await tick()).every((outcome) => outcome.status === "ok" && !outcome.stale)).toBe(true);
    }
    expect(logs.lines.map((line) => line.level)).toEqual(["warn", "info"]);
    expect(logs.lines[0]!.message).toContain("US National Weather Service unavailable");
    expect(logs.lines[1]!.message).toContain("is back");
    // Every failing round asked again (after the 1 ms failure interval), two tries each.
    expect(fake.nws.requests.length).toBeGreaterThanOrEqual(3 + 4 * 3 * 2);
  });

  it("logs a bad answer for one area once, without taking the service for down", async () => {
    fake.nws.setActive("*", []);
    const { warnings, logs } = layer({ refreshMs: 1, failureRetryMs: 1 });
    const ocean = { latitude: 31.5, longitude: -200.5, countryCode: "US" };
    for (let round = 0; round < 3; round++) {
      await pause(5);
      expect(await warnings.warningsFor(ocean, "en-US")).toMatchObject({ status: "unavailable", reason: "http-error" });
      expect(await warnings.warningsFor(CHATOM, "en-US")).toMatchObject({ status: "ok" });
    }
    expect(logs.lines).toHaveLength(1);
    expect(logs.lines[0]!.message).toContain("an answer this app refuses: the NWS answered 400");
    // A real outage meanwhile is still told.
    fake.fail("nws", 503);
    await pause(5);
    await warnings.warningsFor(CHATOM, "en-US");
    expect(logs.lines.map((line) => line.message)).toContainEqual(expect.stringContaining("US National Weather Service unavailable"));
  });

  it("turns hostile and broken answers into unavailable outcomes", async () => {
    const cases = [
      ["garbage", "malformed"],
      ["billion-laughs", "malformed"],
      ["huge", "too-large"],
      ["wrong-encoding", "bad-encoding"],
      ["reset", "unreachable"],
      [429, "http-error"],
    ] as const;
    for (const [mode, reason] of cases) {
      fake.reset();
      fake.fail("nws", mode);
      const { warnings, logs } = layer({ maxNwsBytes: 1024 * 1024 });
      expect(await warnings.warningsFor(CHATOM, "en-US"), String(mode)).toMatchObject({ status: "unavailable", reason });
      expect(logs.count("warn")).toBe(1);
    }
  });
});

describe("MeteoAlarm over HTTP", () => {
  it("reads a real feed and the CAP documents it links to, from the configured base only", async () => {
    fake.meteoAlarm.setRawFeed("france", warningsFixture("meteoalarm/france-atom.xml"));
    fake.meteoAlarm.setDocumentAt(
      "/api/v1/warnings/feeds-france/2f32f9f9-06df-48aa-b0a0-10493ea07c51",
      warningsFixture("meteoalarm/france-avalanche-update.xml"),
    );
    // The other document is missing (404): that Alert is served from its feed entries.
    const { warnings } = layer({ now: runningFrom(BEFORE_FRENCH_EXPIRY) });
    const outcome = await warnings.warningsFor(ANNECY, "fr-FR");
    const list = okWarnings(outcome);
    expect(outcome).toMatchObject({ incomplete: [] });
    expect(list.map((warning) => [warning.id, warning.messageType, warning.service, warning.event])).toEqual([
      ["meteoalarm:2.49.0.0.250.0.FR.20221206160108.315028", "Update", "MeteoAlarm / METEO-FRANCE", "Vigilance jaune avalanches"],
      ["meteoalarm:2.49.0.0.250.0.FR.20221207160058.764028", "Alert", "MeteoAlarm", "Moderate avalanches warning"],
    ]);
    expect(list[0]).toMatchObject({ language: "fr-FR", match: "country", replaces: "2.49.0.0.250.0.FR.20221206160108.315028" });
    expect(list[0]!.texts.map((text) => text.language)).toEqual(["fr-FR", "en-GB"]);
    expect(list[0]!.area).toBe("Alpes de Haute Provence; Hautes Alpes; Alpes Maritimes; Isere; Savoie; Haute Savoie");
    expect(fake.meteoAlarm.documentRequests.sort()).toEqual([
      "/api/v1/warnings/feeds-france/04d497d4-d114-4d6b-93ba-13fa7ed577fe",
      "/api/v1/warnings/feeds-france/2f32f9f9-06df-48aa-b0a0-10493ea07c51",
    ]);
    expect(outside).toEqual([]);
  });

  it("announces a warning issued, updated and cancelled under one id, in the reader's language where written", async () => {
    const { issued, update, cancelled } = frenchAvalancheChain();
    const { warnings } = layer({ refreshMs: 1, now: runningFrom(BEFORE_FRENCH_EXPIRY) });
    const seen = [];
    for (const documents of [[issued], [update], [cancelled], []]) {
      fake.meteoAlarm.setDocuments("france", documents);
      await pause(5);
      const [german, french] = [
        okWarnings(await warnings.warningsFor(PARIS, "de-DE")),
        okWarnings(await warnings.warningsFor(PARIS, "fr-FR")),
      ];
      seen.push(german.map((warning, i) => [warning.id, warning.messageType, warning.language, french[i]!.language]));
    }
    const id = "meteoalarm:2.49.0.0.250.0.FR.20221206160108.315028";
    expect(seen).toEqual([[[id, "Alert", "en-GB", "fr-FR"]], [[id, "Update", "en-GB", "fr-FR"]], [[id, "Cancel", "en-GB", "fr-FR"]], []]);
    // A CAP message never changes: each document was read once, though the feed was read at every step.
    expect(fake.meteoAlarm.documentRequests).toHaveLength(3);
    expect(fake.meteoAlarm.feedRequests.length).toBeGreaterThanOrEqual(4);
  });

  it("matches by polygon when the documents carry them", async () => {
    fake.meteoAlarm.setDocuments("ireland", [warningsFixture("meteoalarm/ireland-ice-alert-trimmed.xml")]);
    const { warnings } = layer({ now: runningFrom("2022-12-07T12:00:00Z") });
    const monaghan = { latitude: 54.25, longitude: -6.97, countryCode: "IE", name: "Monaghan" };
    const dublin = { latitude: 53.35, longitude: -6.26, countryCode: "IE", name: "Dublin" };
    expect(okWarnings(await warnings.warningsFor(monaghan, "en-IE"))).toMatchObject([
      { match: "point", service: "MeteoAlarm / Met Éireann", area: "Ireland", severity: "Moderate" },
    ]);
    expect(okWarnings(await warnings.warningsFor(dublin, "en-IE"))).toEqual([]);
    expect(fake.meteoAlarm.feedRequests).toEqual(["ireland"]);
  });

  it("turns a hostile or broken feed into unavailable, and a broken update's document into an incomplete answer", async () => {
    const cases = [
      ["billion-laughs", "refused-dtd"],
      ["huge", "too-large"],
      ["wrong-encoding", "bad-encoding"],
      ["garbage", "malformed"],
      ["hang", "timeout"],
    ] as const;
    for (const [mode, reason] of cases) {
      fake.reset();
      fake.fail("meteoalarm", mode);
      const { warnings } = layer({ maxFeedBytes: 1024 * 1024, timeoutMs: 300 });
      expect(await warnings.warningsFor(PARIS, "fr-FR"), mode).toMatchObject({ status: "unavailable", serviceId: "meteoalarm", reason });
    }

    fake.reset();
    const uk = warningsFixture("meteoalarm/uk-ice-alert.xml");
    const ukUpdate = deriveCap(uk, {
      identifier: "2.49.0.0.826.0.GB_221207102835_a705d176.v2.0.SI",
      sent: "2022-12-07T12:00:00+00:00",
      msgType: "Update",
      references:
        "https://www.metoffice.gov.uk/weather/warnings-and-advice/uk-warnings,2.49.0.0.826.0.GB_221207102835_a705d176.v1.0.SI,2022-12-07T10:28:35+00:00",
    });
    const scotland = deriveCap(uk, { identifier: "scotland-1", sent: "2022-12-07T09:00:00+00:00", msgType: "Alert", references: null });
    fake.meteoAlarm.setDocuments("united-kingdom", [ukUpdate, scotland]);
    fake.meteoAlarm.setDocumentAt(
      fake.meteoAlarm.documentPath("united-kingdom", "2.49.0.0.826.0.GB_221207102835_a705d176.v2.0.SI"),
      `<?xml version="1.0"?><!DOCTYPE a [<!ENTITY a "aaaaaaaaaa">]><alert>&a;</alert>`,
    );
    const { warnings } = layer({ now: runningFrom("2022-12-07T12:00:00Z") });
    const belfast = { latitude: 54.6, longitude: -5.93, countryCode: "GB", name: "Belfast", admin1: "Northern Ireland" };
    const outcome = await warnings.warningsFor(belfast, "en-GB");
    expect(outcome).toMatchObject({ status: "ok", incomplete: ["2.49.0.0.826.0.GB_221207102835_a705d176.v2.0.SI"] });
    expect(okWarnings(outcome)).toMatchObject([{ id: "meteoalarm:scotland-1", match: "area-name", area: "Northern Ireland" }]);
  });

  it("is unavailable when the feed answers but no document does", async () => {
    fake.meteoAlarm.setDocuments("france", [warningsFixture("meteoalarm/france-avalanche-update.xml")]);
    fake.fail("meteoalarm", 503, { documentsOnly: true });
    const { warnings } = layer({ now: runningFrom(BEFORE_FRENCH_EXPIRY) });
    expect(await warnings.warningsFor(PARIS, "fr-FR")).toMatchObject({ status: "unavailable", reason: "http-error" });
  });
});

describe("places outside every covered area", () => {
  it("say so plainly, without asking any service", async () => {
    const { warnings } = layer();
    expect(await warnings.warningsFor({ latitude: 35.68, longitude: 139.69, countryCode: "JP" }, "en-US")).toEqual({
      status: "not-covered",
      reason: "outside-covered-areas",
    });
    expect(warnings.coverage({ latitude: 35.68, longitude: 139.69 })).toEqual({ covered: false, reason: "no-country" });
    expect(fake.nws.requests).toEqual([]);
    expect(fake.meteoAlarm.feedRequests).toEqual([]);
  });
});
