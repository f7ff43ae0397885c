import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";

/**
 * A loopback fake of the two official-warning services, on one port (their paths do not meet,
 * so NWS_ALERTS_URL and METEOALARM_URL can both be its url), speaking their wire formats:
 *
 * - the NWS alerts API: `GET /alerts/active?point=lat,lon` → `application/geo+json` FeatureCollection
 *   of the features set for that point (real features from tests/fixtures/warnings/nws); a bad point is
 *   a 400 `application/problem+json`, a request without a User-Agent a 403, as the NWS does;
 * - MeteoAlarm: `GET /feeds/meteoalarm-legacy-atom-<country>` → the legacy Atom feed (one entry per CAP
 *   document, English `info` and area, `cap:` fields, a link of type application/cap+xml), built from the
 *   CAP 1.2 documents set for the country, and `GET /api/v1/warnings/feeds-<country>/<uuid>` → the document;
 *   or a real feed served as it is, with documents at the paths its links name.
 *
 * Tests switch the documents in force, count requests, hold answers (to see requests joined), and make
 * either service fail: HTTP errors, no answer, a slow answer, malformed or hostile bodies.
 */

export type WarningServiceName = "nws" | "meteoalarm";

export type FakeWarningsFailure =
  /** HTTP status answers. */
  | 429
  | 500
  | 503
  /** Answers after `slowMs` (longer than a client's timeout). */
  | "slow"
  /** Never answers (until the fake closes). */
  | "hang"
  /** Closes the connection without an answer. */
  | "reset"
  /** A body that is neither JSON nor well-formed XML. */
  | "garbage"
  /** XML with the billion-laughs entity declarations (JSON services get it too: it is not JSON). */
  | "billion-laughs"
  /** A body of `hugeBytes` (over the client's cap), streamed without a Content-Length. */
  | "huge"
  /** Latin-1 bytes in a body that says it is UTF-8. */
  | "wrong-encoding";

export type FakeFailureOptions = {
  /** How many answers fail (default: every one, until recover()). */
  count?: number;
  /** MeteoAlarm: only the CAP documents fail, not the feeds. */
  documentsOnly?: boolean;
  /** NWS: only answers for this point ("lat,lon" as the request writes it) fail. */
  point?: string;
};

export type FakeOfficialWarnings = {
  url: string;
  nws: {
    /** The features answered for a point ("lat,lon" as requested; "*" for every point not set). */
    setActive(point: string, features: unknown[]): void;
    readonly requests: Array<{ point: string; userAgent: string | undefined }>;
  };
  meteoAlarm: {
    /** The CAP documents in force for a country feed (its name in the URL, e.g. "france"); the feed is built from them. */
    setDocuments(country: string, documents: string[]): void;
    /** Serves this feed text as it is for the country (null: build it from the documents again). */
    setRawFeed(country: string, atom: string | null): void;
    /** Serves a body at a path (a real feed's document links, a hostile document). */
    setDocumentAt(documentPath: string, body: string | Buffer): void;
    /** The path a document set with setDocuments is served at. */
    documentPath(country: string, identifier: string): string;
    readonly feedRequests: string[];
    readonly documentRequests: string[];
  };
  fail(service: WarningServiceName, mode: FakeWarningsFailure, options?: FakeFailureOptions): void;
  recover(service?: WarningServiceName): void;
  /** Holds the service's answers until the returned function is called. */
  hold(service: WarningServiceName): () => void;
  reset(): void;
  close(): Promise<void>;
};

export const WARNINGS_FIXTURES = path.resolve(import.meta.dirname, "../fixtures/warnings");

/** A fixture file's text. */
export function warningsFixture(name: string): string {
  return readFileSync(path.join(WARNINGS_FIXTURES, name), "utf8");
}

/** The features of an NWS fixture, by CAP identifier. */
export function nwsFeatures(name: string): Map<string, Record<string, unknown>> {
  const collection = JSON.parse(warningsFixture(name)) as { features: Array<{ properties: { id: string } }> };
  return new Map(collection.features.map((feature) => [feature.properties.id, feature as unknown as Record<string, unknown>]));
}

/**
 * A CAP document derived from a real one, for a message the samples lack: the same document with
 * another identifier, sent time, message type and references (nothing else changes).
 */
export function deriveCap(
  xml: string,
  change: { identifier: string; sent: string; msgType: "Alert" | "Update" | "Cancel"; references: string | null },
): string {
  let out = xml
    .replace(/<identifier>[^<]*<\/identifier>/, `<identifier>${change.identifier}</identifier>`)
    .replace(/<sent>[^<]*<\/sent>/, `<sent>${change.sent}</sent>`)
    .replace(/<msgType>[^<]*<\/msgType>/, `<msgType>${change.msgType}</msgType>`)
    .replace(/\s*<references>[^<]*<\/references>/, "");
  if (change.references) out = out.replace(/(<scope>[^<]*<\/scope>)/, `$1\n\t<references>${change.references}</references>`);
  return out;
}

/** Météo-France's avalanche warning as a chain: issued and cancelled (derived from the real update), and the update. */
export function frenchAvalancheChain() {
  const update = warningsFixture("meteoalarm/france-avalanche-update.xml");
  const issued = deriveCap(update, {
    identifier: "2.49.0.0.250.0.FR.20221206160108.315028",
    sent: "2022-12-06T16:01:08+01:00",
    msgType: "Alert",
    references: null,
  });
  const cancelled = deriveCap(update, {
    identifier: "2.49.0.0.250.0.FR.20221207063000.derived",
    sent: "2022-12-07T06:30:00+01:00",
    msgType: "Cancel",
    references: "vigilance@meteo.fr,2.49.0.0.250.0.FR.20221207060126.964028,2022-12-07T06:01:26+01:00",
  });
  return { issued, update, cancelled };
}

const NWS_CONTEXT = [
  "https://geojson.org/geojson-ld/geojson-context.jsonld",
  { "@version": "1.1", wx: "https://api.weather.gov/ontology#", "@vocab": "https://api.weather.gov/ontology#" },
];

const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<lolz>&lol9;</lolz>`;

const escapeXml = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** A stable UUID-shaped name for a document, as MeteoAlarm's document URLs have. */
function uuidOf(identifier: string): string {
  const hex = createHash("sha1").update(identifier).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

type Node = Record<string, unknown>;
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);
const text = (value: unknown): string => (typeof value === "string" ? value : "");

const capReader = new XMLParser({
  removeNSPrefix: true,
  parseTagValue: false,
  processEntities: true,
  isArray: (name) => ["info", "area", "geocode", "polygon"].includes(name),
});

/** The legacy Atom feed MeteoAlarm publishes for these documents (format of tests/fixtures/warnings/meteoalarm/*-atom*.xml). */
function atomFeed(base: string, country: string, documents: string[]): string {
  const entries: string[] = [];
  for (const xml of documents) {
    const alert = (capReader.parse(xml) as { alert: Node }).alert;
    const infos = list(alert.info) as Node[];
    const englishIndex = Math.max(
      0,
      infos.findIndex((info) => text(info.language).toLowerCase().startsWith("en")),
    );
    const info = infos[englishIndex];
    if (!info) continue;
    const identifier = text(alert.identifier);
    const documentUrl = `${base}/api/v1/warnings/feeds-${country}/${uuidOf(identifier)}`;
    const sent = new Date(text(alert.sent)).toISOString().replace(".000Z", "+00:00");
    const at = (value: unknown) => (text(value) ? new Date(text(value)).toISOString().replace(".000Z", "+00:00") : "");
    (list(info.area) as Node[]).forEach((area, areaIndex) => {
      const geocode = (list(area.geocode) as Node[])[0];
      entries.push(`	<entry>
${geocode ? `		<cap:geocode>\n			<valueName>${escapeXml(text(geocode.valueName))}</valueName>\n			<value>${escapeXml(text(geocode.value))}</value>\n		</cap:geocode>\n` : ""}		<cap:areaDesc>${escapeXml(text(area.areaDesc))}</cap:areaDesc>
		<cap:event>${escapeXml(text(info.event))}</cap:event>
		<cap:sent>${sent}</cap:sent>
		<cap:expires>${at(info.expires)}</cap:expires>
		<cap:effective>${at(info.effective)}</cap:effective>
		<cap:onset>${at(info.onset)}</cap:onset>
		<cap:certainty>${escapeXml(text(info.certainty))}</cap:certainty>
		<cap:severity>${escapeXml(text(info.severity))}</cap:severity>
		<cap:urgency>${escapeXml(text(info.urgency))}</cap:urgency>
		<cap:scope>${escapeXml(text(alert.scope))}</cap:scope>
		<cap:message_type>${escapeXml(text(alert.msgType))}</cap:message_type>
		<cap:status>${escapeXml(text(alert.status))}</cap:status>
		<cap:identifier>${escapeXml(identifier)}</cap:identifier>
		<link href="${documentUrl}" type="application/cap+xml"/>
		<published>${sent.replace("+00:00", "Z")}</published>
		<id>${documentUrl}?index_info=${englishIndex}&amp;index_area=${areaIndex}&amp;index_geocode=0</id>
		<title>${escapeXml(text(info.event))} - ${escapeXml(text(area.areaDesc))}</title>
		<updated>${sent.replace("+00:00", "Z")}</updated>
	</entry>`);
    });
  }
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed
	xmlns="http://www.w3.org/2005/Atom"
	xmlns:cap="urn:oasis:names:tc:emergency:cap:1.2">
	<link href="${base}/feeds/meteoalarm-legacy-atom-${country}" rel="self" type="application/atom+xml"/>
	<rights>Copyright (c) 2022, meteoalarm.org</rights>
	<generator>Meteoalarm Producer Server</generator>
	<id>tag:meteoalarm.org,2021-02-19:${country}</id>
	<title>Meteoalarm - severe weather warnings for Europe</title>
	<updated>${new Date().toISOString()}</updated>
${entries.join("\n")}
</feed>
`;
}

type Failure = { mode: FakeWarningsFailure; remaining: number; documentsOnly: boolean; point?: string };

export async function startFakeOfficialWarnings(options: { slowMs?: number; hugeBytes?: number } = {}): Promise<FakeOfficialWarnings> {
  const slowMs = options.slowMs ?? 5_000;
  const hugeBytes = options.hugeBytes ?? 20 * 1024 * 1024;
  const nwsActive = new Map<string, unknown[]>();
  const documentsByCountry = new Map<string, string[]>();
  const rawFeeds = new Map<string, string>();
  const bodies = new Map<string, string | Buffer>();
  const failures: Record<WarningServiceName, Failure[]> = { nws: [], meteoalarm: [] };
  const holds: Record<WarningServiceName, Set<Promise<void>>> = { nws: new Set(), meteoalarm: new Set() };
  const nwsRequests: Array<{ point: string; userAgent: string | undefined }> = [];
  const feedRequests: string[] = [];
  const documentRequests: string[] = [];
  const open = new Set<ServerResponse>();
  let base = "";

  function failureFor(service: WarningServiceName, isDocument: boolean, point?: string): FakeWarningsFailure | undefined {
    const failure = failures[service].find(
      (each) => (!each.documentsOnly || isDocument) && (each.point === undefined || each.point === point),
    );
    if (!failure) return undefined;
    failure.remaining--;
    if (failure.remaining <= 0) failures[service].splice(failures[service].indexOf(failure), 1);
    return failure.mode;
  }

  async function answerFailure(res: ServerResponse, mode: FakeWarningsFailure, contentType: string) {
    switch (mode) {
      case 429:
      case 500:
      case 503:
        res.writeHead(mode, { "content-type": "application/problem+json", "retry-after": "0" });
        return res.end(JSON.stringify({ type: "about:blank", title: "Injected failure", status: mode, detail: "fake outage" }));
      case "hang":
        return;
      case "reset":
        return res.socket?.destroy();
      case "slow":
        await new Promise((resolve) => setTimeout(resolve, slowMs));
        if (res.destroyed) return;
        res.writeHead(200, { "content-type": contentType });
        return res.end(contentType.includes("json") ? '{"type":"FeatureCollection","features":[]}' : "<feed/>");
      case "garbage":
        res.writeHead(200, { "content-type": contentType });
        return res.end("<html><body>502 Bad Gateway</body><feed><entry></html>");
      case "billion-laughs":
        res.writeHead(200, { "content-type": contentType });
        return res.end(BILLION_LAUGHS);
      case "wrong-encoding":
        res.writeHead(200, { "content-type": contentType });
        return res.end(
          Buffer.concat([
            Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><title>M'),
            Buffer.from([0xe9]), // "é" in Latin-1: not UTF-8
            Buffer.from("t\u00e9o</title></feed>", "latin1"),
          ]),
        );
      case "huge": {
        res.writeHead(200, { "content-type": contentType });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        for (let sent = 0; sent < hugeBytes && !res.destroyed; sent += chunk.length) {
          if (!res.write(chunk)) await new Promise((resolve) => res.once("drain", resolve));
        }
        return res.end();
      }
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    open.add(res);
    res.on("close", () => open.delete(res));
    const url = new URL(req.url ?? "/", base);
    const service: WarningServiceName | null =
      url.pathname === "/alerts/active"
        ? "nws"
        : url.pathname.startsWith("/feeds/") || url.pathname.startsWith("/api/v1/warnings/") || bodies.has(url.pathname + url.search)
          ? "meteoalarm"
          : null;
    if (!service) {
      res.writeHead(404, { "content-type": "text/plain" });
      return res.end("not found");
    }
    await Promise.all(holds[service]);

    if (service === "nws") {
      const point = url.searchParams.get("point") ?? "";
      nwsRequests.push({ point, userAgent: req.headers["user-agent"] });
      const failure = failureFor("nws", false, point);
      if (failure !== undefined) return answerFailure(res, failure, "application/geo+json");
      if (!req.headers["user-agent"]) return problem(res, 403, "Forbidden", "A User-Agent header is required");
      const [latitude, longitude] = point.split(",").map(Number) as [number, number];
      if (!/^-?\d{1,2}(\.\d+)?,-?\d{1,3}(\.\d+)?$/.test(point) || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) {
        return problem(
          res,
          400,
          "Bad Request",
          `Parameter "point" is invalid: '${point}' does not match /^(-?\\d+(?:\\.\\d+)?),(-?\\d+(?:\\.\\d+)?)$/`,
        );
      }
      const features = nwsActive.get(point) ?? nwsActive.get("*") ?? [];
      res.writeHead(200, { "content-type": "application/geo+json" });
      return res.end(
        JSON.stringify({
          "@context": NWS_CONTEXT,
          type: "FeatureCollection",
          features,
          title: `Current watches, warnings, and advisories for ${point.replace(",", " N, ")} W`,
          updated: new Date().toISOString().replace(/\.\d{3}Z$/, "+00:00"),
        }),
      );
    }

    const key = url.pathname + url.search;
    const feed = /^\/feeds\/meteoalarm-legacy-atom-([a-z-]+)$/.exec(url.pathname)?.[1];
    if (feed) feedRequests.push(feed);
    else documentRequests.push(key);
    const failure = failureFor("meteoalarm", !feed);
    const contentType = feed ? "application/atom+xml; charset=utf-8" : "application/cap+xml";
    if (failure !== undefined) return answerFailure(res, failure, contentType);
    if (feed) {
      res.writeHead(200, { "content-type": contentType });
      return res.end(rawFeeds.get(feed) ?? atomFeed(base, feed, documentsByCountry.get(feed) ?? []));
    }
    const body = bodies.get(key) ?? bodies.get(url.pathname);
    if (body === undefined) {
      res.writeHead(404, { "content-type": "application/json" });
      return res.end('{"detail":"Not Found"}');
    }
    res.writeHead(200, { "content-type": contentType });
    return res.end(body);
  }

  function problem(res: ServerResponse, status: number, title: string, detail: string) {
    res.writeHead(status, { "content-type": "application/problem+json" });
    res.end(
      JSON.stringify({
        correlationId: "fake",
        title,
        type: `https://api.weather.gov/problems/${title.replace(/\s/g, "")}`,
        status,
        detail,
      }),
    );
  }

  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    nws: {
      setActive(point, features) {
        nwsActive.set(point, features);
      },
      requests: nwsRequests,
    },
    meteoAlarm: {
      setDocuments(country, documents) {
        documentsByCountry.set(country, documents);
        for (const xml of documents) {
          const identifier = /<identifier>([^<]*)<\/identifier>/.exec(xml)?.[1] ?? "";
          bodies.set(`/api/v1/warnings/feeds-${country}/${uuidOf(identifier)}`, xml);
        }
      },
      setRawFeed(country, atom) {
        if (atom === null) rawFeeds.delete(country);
        else rawFeeds.set(country, atom);
      },
      setDocumentAt(documentPath, body) {
        bodies.set(documentPath, body);
      },
      documentPath: (country, identifier) => `/api/v1/warnings/feeds-${country}/${uuidOf(identifier)}`,
      feedRequests,
      documentRequests,
    },
    fail(service, mode, { count = Infinity, documentsOnly = false, point } = {}) {
      failures[service].push({ mode, remaining: count, documentsOnly, point });
    },
    recover(service) {
      for (const name of service ? [service] : (["nws", "meteoalarm"] as const)) failures[name].length = 0;
    },
    hold(service) {
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      holds[service].add(held);
      return () => {
        holds[service].delete(held);
        release();
      };
    },
    reset() {
      nwsActive.clear();
      documentsByCountry.clear();
      rawFeeds.clear();
      bodies.clear();
      failures.nws.length = 0;
      failures.meteoalarm.length = 0;
      nwsRequests.length = 0;
      feedRequests.length = 0;
      documentRequests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
