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
