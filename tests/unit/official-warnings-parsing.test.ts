import { describe, expect, it } from "vitest";
import { matchAreas } from "~/api/warnings/area-match.server";
import { createChainMemory, currentMessages } from "~/api/warnings/cap-chain.server";
import { parseCapAlert } from "~/api/warnings/cap-document.server";
import { coverageOf } from "~/api/warnings/coverage.server";
import { FeedError } from "~/api/warnings/feed-error.server";
import { fetchBody } from "~/api/warnings/fetch-body.server";
import { chooseByLanguage } from "~/api/warnings/language-choice.server";
import { parseMeteoAlarmAtom } from "~/api/warnings/meteoalarm-atom.server";
import { toOfficialWarning } from "~/api/warnings/normalise.server";
import { parseNwsAlerts } from "~/api/warnings/nws-alerts.server";
import { decodeXmlText } from "~/api/warnings/text-decoding.server";
import { frenchAvalancheChain, nwsFeatures, warningsFixture } from "../fakes/official-warnings";

const TORNADO = "nws/mobile-al-tornado-watch.json";
const ISSUED = "urn:oid:2.49.0.1.840.0.f95cf0f79f72666950dffd7631c8e3ea59badf98.001.1";
const UPDATED = "urn:oid:2.49.0.1.840.0.cfc6c16f6a710f26ac1510695362885161a510a0.002.1";
const CANCELLED = "urn:oid:2.49.0.1.840.0.b65fb091e05fea08483f8f6b0c7c57f290315a18.001.1";

const collection = (...features: unknown[]) => JSON.stringify({ type: "FeatureCollection", features });
const feature = (id: string) => nwsFeatures(TORNADO).get(id)!;

/** The FeedError `run` throws. */
function feedError(run: () => unknown): FeedError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(FeedError);
    return error as FeedError;
  }
  throw new Error("expected a FeedError");
}

const utf8 = (text: string) => new TextEncoder().encode(text);
const parseCap = (xml: string) => parseCapAlert(decodeXmlText(utf8(xml), null, "MeteoAlarm"), "MeteoAlarm");

describe("NWS alerts (real GeoJSON of the API)", () => {
  it("reads a feature's CAP fields: event, severity, urgency, certainty, area, onset, ends, texts, sender", () => {
    const { messages, skipped } = parseNwsAlerts(collection(feature(ISSUED)));
    expect(skipped).toBe(0);
    const [message] = messages;
    expect(message).toMatchObject({ identifier: ISSUED, msgType: "Alert", status: "Actual", references: [] });
    expect(message!.infos[0]).toMatchObject({
      language: "en-US",
      event: "Tornado Watch",
      severity: "Extreme",
      urgency: "Future",
      certainty: "Possible",
      onset: "2025-11-25T18:06:00.000Z",
      expires: "2025-11-26T00:00:00.000Z",
      senderName: "NWS Mobile AL",
      headline: "Tornado Watch issued November 25 at 12:06PM CST until November 25 at 6:00PM CST by NWS Mobile AL",
      instruction: null,
    });
    expect(message!.infos[0]!.areas[0]!.areaDesc).toContain("Washington, AL");
    expect(message!.infos[0]!.areas[0]!.geocodes).toContainEqual({ valueName: "UGC", value: "ALC129" });
  });

  it("keeps one id from the watch's issue through its update to its cancellation", () => {
    const stages = [[ISSUED], [ISSUED, UPDATED], [UPDATED], [CANCELLED]];
    const chains = createChainMemory();
    const seen = stages.map((ids) => {
      const current = currentMessages(parseNwsAlerts(collection(...ids.map(feature))).messages, chains);
      expect(current).toHaveLength(1);
      const [{ root, message }] = current as [(typeof current)[0]];
      return toOfficialWarning({
        serviceId: "nws",
        service: "US National Weather Service",
        root,
        message,
        info: message.infos[0]!,
        match: "point",
        area: "",
      });
    });
    expect(seen.map((warning) => warning.id)).toEqual(Array(4).fill(`nws:${ISSUED}`));
    expect(seen.map((warning) => [warning.messageType, warning.replaces])).toEqual([
      ["Alert", null],
      ["Update", ISSUED],
      ["Update", ISSUED],
      ["Cancel", UPDATED],
    ]);
    expect(seen[3]!.references).toEqual([ISSUED, UPDATED]);
    // A fresh process (no memory) still finds the root: the NWS lists the whole chain.
    expect(currentMessages(parseNwsAlerts(collection(feature(CANCELLED))).messages, createChainMemory())[0]!.root).toBe(ISSUED);
  });

  it("skips features with missing fields and keeps the rest; refuses what is not a FeatureCollection", () => {
    const noEvent = structuredClone(feature(ISSUED)) as { properties: Record<string, unknown> };
    delete noEvent.properties.event;
    const odd = structuredClone(feature(UPDATED)) as { properties: Record<string, unknown> };
    Object.assign(odd.properties, { severity: "Apocalyptic", onset: "not a date", references: [{ nope: 1 }, "x"] });
    const { messages, skipped } = parseNwsAlerts(collection(noEvent, null, 42, { properties: "x" }, odd));
    expect(skipped).toBe(4);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.infos[0]).toMatchObject({ severity: "Unknown", onset: "2025-11-25T22:20:00.000Z" });
    expect(messages[0]!.references).toEqual([]);

    expect(feedError(() => parseNwsAlerts("<html>oops</html>")).reason).toBe("malformed");
    expect(feedError(() => parseNwsAlerts('{"type":"Feature"}')).reason).toBe("malformed");
    expect(feedError(() => parseNwsAlerts("[]")).reason).toBe("malformed");
  });
});

describe("MeteoAlarm Atom feeds (real)", () => {
  it("groups a feed's entries back into one warning per CAP document, with every area", () => {
    const feedUrl = new URL("http://127.0.0.1:9/feeds/meteoalarm-legacy-atom-france");
    const warnings = parseMeteoAlarmAtom(warningsFixture("meteoalarm/france-atom.xml"), feedUrl);
    expect(warnings.map((warning) => warning.documentPath)).toEqual([
      "/api/v1/warnings/feeds-france/04d497d4-d114-4d6b-93ba-13fa7ed577fe",
      "/api/v1/warnings/feeds-france/2f32f9f9-06df-48aa-b0a0-10493ea07c51",
    ]);
    expect(warnings[1]!.summary).toMatchObject({ identifier: "2.49.0.0.250.0.FR.20221207060126.964028", msgType: "Update" });
    expect(warnings[1]!.summary.infos[0]).toMatchObject({ event: "Moderate avalanches warning", severity: "Moderate", urgency: "Future" });
    expect(warnings[1]!.summary.infos[0]!.areas.map((area) => [area.areaDesc, area.geocodes[0]!.value])).toEqual([
      ["Haute Savoie", "FR718"],
      ["Savoie", "FR717"],
    ]);
    const ireland = parseMeteoAlarmAtom(warningsFixture("meteoalarm/ireland-atom-trimmed.xml"), feedUrl);
    expect(ireland[0]!.summary.identifier).toBe("2.49.0.1.372.0.221206232741.M_LowTemp003");
  });
});

describe("CAP 1.2 documents (real, MeteoAlarm)", () => {
  it("reads every info block, its language, the sender's name, references and geocodes", () => {
    const message = parseCap(warningsFixture("meteoalarm/france-avalanche-update.xml"));
    expect(message).toMatchObject({
      identifier: "2.49.0.0.250.0.FR.20221207060126.964028",
      sender: "vigilance@meteo.fr",
      sent: "2022-12-07T05:01:26.000Z",
      msgType: "Update",
      references: [
        { sender: "vigilance@meteo.fr", identifier: "2.49.0.0.250.0.FR.20221206160108.315028", sent: "2022-12-06T15:01:08.000Z" },
      ],
    });
    expect(message.infos.map((info) => [info.language, info.event, info.senderName])).toEqual([
      ["fr-FR", "Vigilance jaune avalanches", "METEO-FRANCE"],
      ["en-GB", "Moderate avalanches warning", "METEO-FRANCE"],
    ]);
    expect(message.infos[1]!.areas).toHaveLength(6);
    expect(message.infos[1]!.areas[5]).toEqual({
      areaDesc: "Haute Savoie",
      polygons: [],
      geocodes: [{ valueName: "NUTS3", value: "FR718" }],
    });
  });

  it("decodes XML's own entities once and expands nothing else", () => {
    const uk = parseCap(warningsFixture("meteoalarm/uk-ice-alert.xml"));
    expect(uk.infos[0]!.areas.map((area) => area.areaDesc)).toContain("Yorkshire & Humber");
    const doubled = parseCap(
      warningsFixture("meteoalarm/uk-ice-alert.xml").replace("Yorkshire &amp; Humber", "A &amp;lt; B &#233;&#x20AC; &nbsp;"),
    );
    expect(doubled.infos[0]!.areas.at(-1)!.areaDesc).toBe("A &lt; B é€ &nbsp;");
  });

  it("reads polygons, and matches a place by its point when a warning has them", () => {
    const ireland = parseCap(warningsFixture("meteoalarm/ireland-ice-alert-trimmed.xml"));
    const areas = ireland.infos[0]!.areas;
    expect(areas[0]!.polygons.map((polygon) => polygon.length)).toEqual([66, 47]);
    // Monaghan (inside the second polygon) and Dublin (inside neither of the two kept).
    expect(matchAreas(areas, { latitude: 54.25, longitude: -6.97 })).toEqual({ match: "point", areas: ["Ireland"] });
    expect(matchAreas(areas, { latitude: 53.35, longitude: -6.26 })).toBeNull();
  });

  it("matches warnings without polygons by area name, else as elsewhere in the country", () => {
    const areas = parseCap(warningsFixture("meteoalarm/uk-ice-alert.xml")).infos[0]!.areas;
    expect(matchAreas(areas, { latitude: 54.6, longitude: -5.9, name: "Belfast", admin1: "Northern Ireland" })).toEqual({
      match: "area-name",
      areas: ["Northern Ireland"],
    });
    expect(matchAreas(areas, { latitude: 51.5, longitude: -0.12, name: "London", admin1: "England" })).toMatchObject({
      match: "country",
      areas: expect.arrayContaining(["Wales", "Yorkshire & Humber"]) as unknown,
    });
  });

  it("gives the reader's language, else English, else the first block", () => {
    const infos = parseCap(warningsFixture("meteoalarm/france-avalanche-update.xml")).infos;
    expect(chooseByLanguage(infos, "fr-FR")!.event).toBe("Vigilance jaune avalanches");
    expect(chooseByLanguage(infos, "fr-CA")!.language).toBe("fr-FR");
    expect(chooseByLanguage(infos, "de-DE")!.language).toBe("en-GB");
    expect(chooseByLanguage(infos, "es-ES")!.language).toBe("en-GB");
    expect(chooseByLanguage([infos[0]!], "de-DE")!.language).toBe("fr-FR");
    expect(chooseByLanguage([], "de-DE")).toBeUndefined();
  });

  it("follows a chain whose messages name only the one they replace (issued → updated → cancelled)", () => {
    const { issued, update, cancelled } = frenchAvalancheChain();
    const chains = createChainMemory();
    const roots = [issued, update, cancelled].map((xml) => currentMessages([parseCap(xml)], chains)[0]!.root);
    expect(roots).toEqual(Array(3).fill("2.49.0.0.250.0.FR.20221206160108.315028"));
    // All three in one feed: the cancellation is the warning's current message.
    const together = currentMessages([update, cancelled, issued].map(parseCap), createChainMemory());
    expect(together.map(({ message }) => message.msgType)).toEqual(["Cancel"]);
  });
});

describe("hostile and broken XML", () => {
  const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">]>
<alert xmlns="urn:oasis:names:tc:emergency:cap:1.2"><identifier>&lol2;</identifier></alert>`;

  it("refuses entity expansion (billion laughs) and external entities unread", () => {
    const started = performance.now();
    expect(feedError(() => parseCap(BILLION_LAUGHS)).reason).toBe("refused-dtd");
    expect(performance.now() - started).toBeLessThan(100);
    const external = `<?xml version="1.0"?><!DOCTYPE alert [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><alert><identifier>&xxe;</identifier></alert>`;
    expect(feedError(() => parseCap(external)).reason).toBe("refused-dtd");
  });

  it("refuses malformed documents, ones that are not CAP, and CAP without an identifier", () => {
    expect(feedError(() => parseCap("<alert><identifier>x</alert>")).reason).toBe("malformed");
    expect(feedError(() => parseCap("not xml at all")).reason).toBe("malformed");
    expect(feedError(() => parseCap("<feed><entry/></feed>")).reason).toBe("malformed");
    expect(feedError(() => parseCap("<alert><sender>x</sender></alert>")).reason).toBe("malformed");
    const deep = `<alert><identifier>x</identifier>${"<info>".repeat(200)}${"</info>".repeat(200)}</alert>`;
    expect(feedError(() => parseCap(deep)).reason).toBe("malformed");
  });

  it("keeps what it can of a document with missing or odd fields", () => {
    const sparse = parseCap(
      `<alert xmlns="urn:oasis:names:tc:emergency:cap:1.2"><identifier>id-1</identifier><msgType>alert</msgType>
       <info><event>Wind</event><severity>severe</severity><onset>soon</onset><area><polygon>1,2 3,x</polygon></area></info>
       <info><headline>no event: skipped</headline></info></alert>`,
    );
    expect(sparse).toMatchObject({ identifier: "id-1", msgType: "Alert", sent: null, status: "", references: [] });
    expect(sparse.infos).toHaveLength(1);
    expect(sparse.infos[0]).toMatchObject({ language: "en-US", severity: "Severe", urgency: "Unknown", onset: null, expires: null });
    expect(sparse.infos[0]!.areas[0]!.polygons).toEqual([]);
    const long = parseCap(
      `<alert><identifier>id-2</identifier><info><event>x</event><description>${"a".repeat(50_000)}</description></info></alert>`,
    );
    expect(long.infos[0]!.description).toHaveLength(10_000);
  });

  it("reads the encoding the document declares and refuses bytes that are not it", () => {
    const latin1 = Buffer.from(
      `<?xml version="1.0" encoding="ISO-8859-1"?><alert><identifier>M\u00e9t\u00e9o</identifier></alert>`,
      "latin1",
    );
    expect(parseCapAlert(decodeXmlText(latin1, null, "MeteoAlarm"), "MeteoAlarm").identifier).toBe("Météo");
    const mislabelled = Buffer.from(
      `<?xml version="1.0" encoding="UTF-8"?><alert><identifier>M\u00e9t\u00e9o</identifier></alert>`,
      "latin1",
    );
    expect(feedError(() => decodeXmlText(mislabelled, null, "MeteoAlarm")).reason).toBe("bad-encoding");
    expect(feedError(() => decodeXmlText(mislabelled, "application/xml; charset=iso-8859-1", "MeteoAlarm")).reason).toBe("bad-encoding");
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`<alert><identifier>Wien</identifier></alert>`, "utf16le")]);
    expect(decodeXmlText(utf16, null, "MeteoAlarm")).toBe("<alert><identifier>Wien</identifier></alert>");
    const unknown = utf8(`<?xml version="1.0" encoding="x-klingon"?><alert/>`);
    expect(feedError(() => decodeXmlText(unknown, null, "MeteoAlarm")).reason).toBe("bad-encoding");
    expect(feedError(() => decodeXmlText(utf8("<alert>\u0001</alert>"), null, "MeteoAlarm")).reason).toBe("bad-encoding");
  });
});

describe("bodies over the size cap", () => {
  const options = { timeoutMs: 2000, accept: "*/*", userAgent: "test", attempts: 1, retryDelayMs: 0, service: "the NWS" };

  it("refuses a body whose Content-Length is over the cap without reading it", async () => {
    let pulled = 0;
    const body = new ReadableStream({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(1024));
      },
    });
    const fetch = (async () => new Response(body, { headers: { "content-length": String(10 * 1024 * 1024) } })) as typeof globalThis.fetch;
    const error = await fetchBody(new URL("http://x.test/"), { ...options, fetch, maxBytes: 1024 * 1024 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: "too-large" });
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it("stops reading a streamed body once it passes the cap", async () => {
    let sent = 0;
    const body = new ReadableStream({
      pull(controller) {
        sent += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const fetch = (async () => new Response(body)) as typeof globalThis.fetch;
    const error = await fetchBody(new URL("http://x.test/"), { ...options, fetch, maxBytes: 256 * 1024 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: "too-large" });
    expect(sent).toBeLessThan(1024 * 1024);
  });
});

describe("coverage", () => {
  it("says which service covers a place, or plainly that none does", () => {
    expect(coverageOf({ latitude: 31.5, longitude: -88.2, countryCode: "US" })).toEqual({
      covered: true,
      serviceId: "nws",
      credit: "US National Weather Service",
      areaKey: "nws:31.5,-88.2",
    });
    expect(coverageOf({ latitude: 18.466, longitude: -66.1057, countryCode: "pr" })).toMatchObject({ areaKey: "nws:18.47,-66.11" });
    expect(coverageOf({ latitude: 48.85, longitude: 2.35, countryCode: "FR" })).toMatchObject({
      serviceId: "meteoalarm",
      areaKey: "meteoalarm:FR",
    });
    expect(coverageOf({ latitude: 51.5, longitude: -0.12, countryCode: "GB" })).toMatchObject({ areaKey: "meteoalarm:GB" });
    expect(coverageOf({ latitude: 35.68, longitude: 139.69, countryCode: "JP" })).toEqual({
      covered: false,
      reason: "outside-covered-areas",
    });
    expect(coverageOf({ latitude: 0, longitude: 0 })).toEqual({ covered: false, reason: "no-country" });
  });
});
