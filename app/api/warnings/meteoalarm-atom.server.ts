import {
  certaintyOf,
  instantOf,
  messageTypeOf,
  parsePolygon,
  severityOf,
  textValue,
  urgencyOf,
  type CapArea,
  type CapMessage,
} from "./cap-message.server";
import { FeedError } from "./feed-error.server";
import { listOf, parseXml, textOf } from "./safe-xml.server";

/**
 * MeteoAlarm's legacy Atom feed of a country (`/feeds/meteoalarm-legacy-atom-<country>`): one
 * entry per CAP document, `info` block (the English one) and area, carrying the CAP fields with
 * the `cap:` prefix (its `cap:message_type` is CAP's msgType) and a link of type
 * `application/cap+xml` to the CAP 1.2 document. Entries are grouped back into one per document.
 */

const ATOM_LISTS = new Set(["entry", "link", "geocode", "polygon"]);

export type AtomWarning = {
  /** The CAP document's path (and query) on the MeteoAlarm host: read from the configured base, never from the link's host. */
  documentPath: string;
  /** What the entries say of it: used when the document itself cannot be read. */
  summary: CapMessage;
};

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => !!value && typeof value === "object" && !Array.isArray(value);

/** The path of a link, resolved against the feed's own address; null for anything but http(s). */
function pathOf(href: string, feedUrl: URL): string | null {
  try {
    const url = new URL(href, feedUrl);
    return url.protocol === "http:" || url.protocol === "https:" ? `${url.pathname}${url.search}` : null;
  } catch {
    return null;
  }
}

function areaOf(entry: Node): CapArea {
  return {
    areaDesc: textValue(textOf(entry.areaDesc), 500) ?? "",
    polygons: listOf(entry.polygon)
      .map((polygon) => parsePolygon(textOf(polygon)))
      .filter((polygon): polygon is Array<[number, number]> => polygon !== null),
    geocodes: listOf(entry.geocode)
      .filter(isNode)
      .map((geocode) => ({ valueName: textOf(geocode.valueName) ?? "", value: textOf(geocode.value) ?? "" }))
      .filter((geocode) => geocode.valueName && geocode.value),
  };
}

export function parseMeteoAlarmAtom(xml: string, feedUrl: URL): AtomWarning[] {
  const feed = parseXml(xml, ATOM_LISTS, "MeteoAlarm").feed;
  if (!isNode(feed)) throw new FeedError("MeteoAlarm sent a document that is not an Atom feed", "malformed");
  const byDocument = new Map<string, AtomWarning>();
  for (const entry of listOf(feed.entry)) {
    if (!isNode(entry)) continue;
    const identifier = textValue(textOf(entry.identifier), 300);
    const event = textValue(textOf(entry.event), 300);
    const capLink = listOf(entry.link).find((link) => isNode(link) && link["@_type"] === "application/cap+xml") as Node | undefined;
    const documentPath = typeof capLink?.["@_href"] === "string" ? pathOf(capLink["@_href"], feedUrl) : null;
    if (!identifier || !event || !documentPath) continue;
    const area = areaOf(entry);
    const known = byDocument.get(documentPath);
    if (known) {
      const areas = known.summary.infos[0]!.areas;
      if (!areas.some((other) => other.areaDesc === area.areaDesc)) areas.push(area);
      continue;
    }
    byDocument.set(documentPath, {
      documentPath,
      summary: {
        identifier,
        sender: "",
        sent: instantOf(textOf(entry.sent)),
        status: textOf(entry.status) ?? "",
        msgType: messageTypeOf(textOf(entry.message_type)),
        // The feed does not carry them: only the document says which message an Update replaces.
        references: [],
        infos: [
          {
            language: "en",
            event,
            urgency: urgencyOf(textOf(entry.urgency)),
            severity: severityOf(textOf(entry.severity)),
            certainty: certaintyOf(textOf(entry.certainty)),
            onset: instantOf(textOf(entry.onset)) ?? instantOf(textOf(entry.effective)),
            expires: instantOf(textOf(entry.expires)),
            senderName: null,
            headline: textValue(textOf(entry.title), 500),
            description: null,
            instruction: null,
            web: null,
            areas: [area],
          },
        ],
      },
    });
  }
  return [...byDocument.values()];
}
