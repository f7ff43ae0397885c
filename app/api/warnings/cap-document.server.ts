import {
  certaintyOf,
  instantOf,
  messageTypeOf,
  parsePolygon,
  parseReferences,
  severityOf,
  textValue,
  urgencyOf,
  type CapArea,
  type CapInfo,
  type CapMessage,
} from "./cap-message.server";
import { FeedError } from "./feed-error.server";
import { listOf, parseXml, textOf } from "./safe-xml.server";

/** CAP 1.2 elements that may repeat (OASIS CAP-v1.2, section 3.2). */
const CAP_LISTS = new Set(["info", "area", "polygon", "circle", "geocode", "parameter", "resource", "eventCode", "responseType"]);

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => !!value && typeof value === "object" && !Array.isArray(value);

function parseArea(node: unknown): CapArea | null {
  if (!isNode(node)) return null;
  return {
    areaDesc: textValue(textOf(node.areaDesc), 500) ?? "",
    polygons: listOf(node.polygon)
      .map((polygon) => parsePolygon(textOf(polygon)))
      .filter((polygon): polygon is Array<[number, number]> => polygon !== null),
    geocodes: listOf(node.geocode)
      .filter(isNode)
      .map((geocode) => ({ valueName: textOf(geocode.valueName) ?? "", value: textOf(geocode.value) ?? "" }))
      .filter((geocode) => geocode.valueName && geocode.value),
  };
}

function parseInfo(node: unknown): CapInfo | null {
  if (!isNode(node)) return null;
  const event = textValue(textOf(node.event), 300);
  if (!event) return null;
  return {
    // CAP 1.2, section 3.2.2: a block without a language is en-US.
    language: textOf(node.language) ?? "en-US",
    event,
    urgency: urgencyOf(textOf(node.urgency)),
    severity: severityOf(textOf(node.severity)),
    certainty: certaintyOf(textOf(node.certainty)),
    onset: instantOf(textOf(node.onset)) ?? instantOf(textOf(node.effective)),
    expires: instantOf(textOf(node.expires)),
    senderName: textValue(textOf(node.senderName), 200),
    headline: textValue(textOf(node.headline), 500),
    description: textValue(textOf(node.description)),
    instruction: textValue(textOf(node.instruction)),
    web: textValue(textOf(node.web), 500),
    areas: listOf(node.area)
      .map(parseArea)
      .filter((area): area is CapArea => area !== null),
  };
}

/** A CAP 1.2 `alert` document; a FeedError when it is not one or has no identifier. */
export function parseCapAlert(xml: string, service: string): CapMessage {
  const alert = parseXml(xml, CAP_LISTS, service).alert;
  if (!isNode(alert)) throw new FeedError(`${service} sent a document that is not a CAP alert`, "malformed");
  const identifier = textValue(textOf(alert.identifier), 300);
  if (!identifier) throw new FeedError(`${service} sent a CAP alert without an identifier`, "malformed");
  return {
    identifier,
    sender: textOf(alert.sender) ?? "",
    sent: instantOf(textOf(alert.sent)),
    status: textOf(alert.status) ?? "",
    msgType: messageTypeOf(textOf(alert.msgType)),
    references: parseReferences(textOf(alert.references)),
    infos: listOf(alert.info)
      .map(parseInfo)
      .filter((info): info is CapInfo => info !== null),
  };
}
