import { XMLParser, XMLValidator } from "fast-xml-parser";
import { FeedError } from "./feed-error.server";

/**
 * XML from a feed, parsed with nothing expanded: a document that declares a DTD or entities
 * (the billion-laughs attack and external entities both need one) is refused unread, the
 * parser's entity processing is off, and only XML's five predefined entities and character
 * references are decoded, in one pass, by this module. CAP and Atom never need a DTD.
 */

const DTD = /<!DOCTYPE|<!ENTITY/i;
const PREDEFINED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const REFERENCE = /&(?:(amp|lt|gt|quot|apos)|#(\d{1,7})|#x([0-9a-fA-F]{1,6}));/g;

function codePoint(value: number): string {
  return value > 0 && value <= 0x10ffff && !(value >= 0xd800 && value <= 0xdfff) ? String.fromCodePoint(value) : "\uFFFD";
}

/** XML's predefined entities and character references; anything else is left as written. */
export function decodeXmlReferences(value: string): string {
  if (!value.includes("&")) return value;
  return value.replace(REFERENCE, (_, name: string | undefined, decimal: string | undefined, hex: string | undefined) =>
    name ? PREDEFINED[name]! : codePoint(decimal ? Number(decimal) : parseInt(hex!, 16)),
  );
}

/** Parses `text` (namespace prefixes dropped, values kept as strings); elements named in `arrays` are always lists. */
export function parseXml(text: string, arrays: ReadonlySet<string>, service: string): Record<string, unknown> {
  if (DTD.test(text)) {
    throw new FeedError(`${service} sent XML with a DTD or entity declarations; refused (entity expansion is off)`, "refused-dtd");
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    throw new FeedError(`${service} sent XML that is not well-formed: ${valid.err.msg} (line ${valid.err.line})`, "malformed");
  }
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@_",
    removeNSPrefix: true,
    processEntities: false,
    htmlEntities: false,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    ignoreDeclaration: true,
    ignorePiTags: true,
    isArray: (name) => arrays.has(name),
    tagValueProcessor: (_name, value) => decodeXmlReferences(value),
    attributeValueProcessor: (_name, value) => decodeXmlReferences(value),
  });
  try {
    return parser.parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new FeedError(`${service} sent XML this app cannot read: ${(error as Error).message}`, "malformed");
  }
}

/** An element's text: a string, or the text of an element with attributes; null when absent or empty. */
export function textOf(node: unknown): string | null {
  if (typeof node === "string") return node.trim() || null;
  if (node && typeof node === "object" && "#text" in node) return textOf((node as { "#text": unknown })["#text"]);
  return null;
}

/** A list element's items (a lone item, or nothing, as a list too). */
export function listOf(node: unknown): unknown[] {
  if (Array.isArray(node)) return node;
  return node === undefined || node === null || node === "" ? [] : [node];
}
