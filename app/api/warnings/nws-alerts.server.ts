import { z } from "zod";
import {
  certaintyOf,
  instantOf,
  messageTypeOf,
  severityOf,
  textValue,
  urgencyOf,
  type CapArea,
  type CapMessage,
} from "./cap-message.server";
import { FeedError } from "./feed-error.server";

/**
 * The NWS API's active alerts (`/alerts/active?point=`): a GeoJSON FeatureCollection whose
 * features' `properties` carry the CAP fields (https://www.weather.gov/documentation/services-web-api,
 * "Alerts"). A feature without an id or event is skipped; one bad feature never hides the rest.
 */

const text = z.string().nullish();
const reference = z.object({ identifier: z.string().min(1), sender: z.string().nullish(), sent: text });
const properties = z.object({
  id: z.string().min(1),
  event: z.string().min(1),
  areaDesc: text,
  sent: text,
  effective: text,
  onset: text,
  expires: text,
  ends: text,
  status: text,
  messageType: text,
  severity: text,
  certainty: text,
  urgency: text,
  sender: text,
  senderName: text,
  headline: text,
  description: text,
  instruction: text,
  language: text,
  web: text,
  references: z.array(z.unknown()).nullish(),
  geocode: z.record(z.string(), z.array(z.unknown())).nullish(),
});
const polygonGeometry = z.object({
  type: z.literal("Polygon"),
  coordinates: z.array(z.array(z.tuple([z.number(), z.number()]).rest(z.number()))),
});
const collection = z.object({ type: z.literal("FeatureCollection"), features: z.array(z.unknown()) });

export type NwsParseResult = { messages: CapMessage[]; skipped: number };

function areaOf(props: z.infer<typeof properties>, geometry: unknown): CapArea {
  const polygon = polygonGeometry.safeParse(geometry);
  return {
    areaDesc: textValue(props.areaDesc, 2000) ?? "",
    // GeoJSON rings are [longitude, latitude]; CAP's (and this layer's) points are [latitude, longitude].
    polygons: polygon.success ? polygon.data.coordinates.map((ring) => ring.map(([lon, lat]): [number, number] => [lat, lon])) : [],
    geocodes: Object.entries(props.geocode ?? {}).flatMap(([valueName, values]) =>
      values.filter((value): value is string => typeof value === "string").map((value) => ({ valueName, value })),
    ),
  };
}

/** Parses the JSON text of an answer; a FeedError when it is not a FeatureCollection. */
export function parseNwsAlerts(json: string): NwsParseResult {
  let body: unknown;
  try {
    body = JSON.parse(json);
  } catch {
    throw new FeedError("the NWS sent a body that is not JSON", "malformed");
  }
  const parsed = collection.safeParse(body);
  if (!parsed.success) throw new FeedError("the NWS sent JSON that is not a GeoJSON FeatureCollection", "malformed");
  const messages: CapMessage[] = [];
  let skipped = 0;
  for (const feature of parsed.data.features) {
    const props = properties.safeParse((feature as { properties?: unknown } | null)?.properties);
    if (!props.success) {
      skipped++;
      continue;
    }
    const p = props.data;
    messages.push({
      identifier: p.id,
      sender: p.sender ?? "",
      sent: instantOf(p.sent),
      status: p.status ?? "",
      msgType: messageTypeOf(p.messageType),
      references: (p.references ?? []).flatMap((item) => {
        const ref = reference.safeParse(item);
        return ref.success ? [{ identifier: ref.data.identifier, sender: ref.data.sender ?? "", sent: instantOf(ref.data.sent) }] : [];
      }),
      infos: [
        {
          language: p.language ?? "en-US",
          event: textValue(p.event, 300)!,
          urgency: urgencyOf(p.urgency),
          severity: severityOf(p.severity),
          certainty: certaintyOf(p.certainty),
          onset: instantOf(p.onset) ?? instantOf(p.effective),
          // `expires` is when this message expires (a newer one is due), `ends` when the hazard does.
          expires: instantOf(p.ends) ?? instantOf(p.expires),
          senderName: textValue(p.senderName, 200),
          headline: textValue(p.headline, 500),
          description: textValue(p.description),
          instruction: textValue(p.instruction),
          web: textValue(p.web, 500),
          areas: [areaOf(p, (feature as { geometry?: unknown }).geometry)],
        },
      ],
    });
  }
  return { messages, skipped };
}
