import { FeedError } from "./feed-error.server";

/**
 * Bytes to text, refusing what is not the encoding it claims: a body of the wrong encoding
 * becomes "bad-encoding", never mojibake in someone's inbox.
 */

/** Characters XML 1.0 forbids (and JSON strings never carry raw): a body with them is not text. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

function decode(bytes: Uint8Array, label: string, service: string): string {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label, { fatal: true });
  } catch {
    throw new FeedError(`${service} sent text in an encoding this app does not read (${label})`, "bad-encoding");
  }
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw new FeedError(`${service} sent bytes that are not valid ${decoder.encoding}`, "bad-encoding");
  }
  if (CONTROL_CHARACTERS.test(text)) throw new FeedError(`${service} sent text with control characters`, "bad-encoding");
  return text;
}

/** JSON is UTF-8 (RFC 8259, section 8.1); a leading byte-order mark is dropped. */
export function decodeJsonText(bytes: Uint8Array, service: string): string {
  return decode(bytes, "utf-8", service);
}

/**
 * XML's encoding: the byte-order mark, else the declaration's `encoding`, else the HTTP
 * charset, else UTF-8 (XML 1.0 appendix F, simplified to what the feeds use).
 */
export function decodeXmlText(bytes: Uint8Array, contentType: string | null, service: string): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return decode(bytes, "utf-8", service);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return decode(bytes, "utf-16le", service);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return decode(bytes, "utf-16be", service);
  // The declaration is ASCII in every encoding the feeds use: read it as Latin-1.
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 200));
  const declared = /^<\?xml[^>]*\sencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1];
  const charset = /;\s*charset\s*=\s*"?([A-Za-z0-9._-]+)/i.exec(contentType ?? "")?.[1];
  return decode(bytes, declared ?? charset ?? "utf-8", service);
}
