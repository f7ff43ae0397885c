import { Writable } from "node:stream";

/**
 * A rendered page's bytes, handed from the render (entry.server.tsx) to the server's page handler
 * (app/server/page-requests.server.ts) beside its Response rather than inside it. The page is
 * rendered whole before it is answered, so its bytes are one Buffer; wrapped as a Response body,
 * undici would copy it and put it in a web stream, and the handler would read that stream back
 * chunk by chunk to write it to the socket (together some 3 % of a page's CPU).
 */
const bodies = new WeakMap<Response, Buffer>();

/** The page's Response: its status and headers, and its bytes for `pageBodyOf`. */
export function pageResponse(body: Buffer, init: ResponseInit): Response {
  const response = new Response(null, init);
  bodies.set(response, body);
  return response;
}

/** The bytes of a Response made by `pageResponse`; undefined for any other Response. */
export function pageBodyOf(response: Response): Buffer | undefined {
  return bodies.get(response);
}

/** A text that comes often, with its UTF-8 bytes made once. */
export type EncodedText = { text: string; bytes: Buffer };
export const encodedText = (text: string): EncodedText => ({ text, bytes: Buffer.from(text) });

/**
 * Where React writes a page: it keeps the chunks and gives the page's bytes whole when React ends it, encoded once into
 * one Buffer (strings and byte chunks alike, in order). `known`, the same text on every page (the stylesheet), goes in as its bytes.
 */
export function pageCollector(known: EncodedText | null, onFinish: (body: Buffer) => void): Writable {
  const chunks: (Uint8Array | string)[] = [];
  const page = new Writable({
    decodeStrings: false,
    write(chunk: Uint8Array | string, _encoding, done) {
      chunks.push(chunk === known?.text ? known.bytes : chunk);
      done();
    },
  });
  page.on("finish", () => onFinish(joinedBytes(chunks)));
  return page;
}

function joinedBytes(chunks: readonly (Uint8Array | string)[]): Buffer {
  let size = 0;
  for (const chunk of chunks) size += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.byteLength;
  const body = Buffer.allocUnsafe(size);
  let at = 0;
  for (const chunk of chunks) {
    if (typeof chunk === "string") at += body.write(chunk, at);
    else {
      body.set(chunk, at);
      at += chunk.byteLength;
    }
  }
  return body;
}
