import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";

export type CapturedEvent = { event: string; properties: Record<string, unknown> };

/**
 * A loopback stand-in for the PostHog ingestion host: it answers the library's calls
 * (events, flags, config) as the real host does, with CORS, and keeps every event it got.
 */
export async function startFakePostHog() {
  const events: CapturedEvent[] = [];
  const requests: string[] = [];

  function decode(request: IncomingMessage, raw: Buffer): unknown[] {
    const url = new URL(request.url ?? "/", "http://fake");
    let text = raw.toString("utf8");
    if (url.searchParams.get("compression") === "gzip-js" || request.headers["content-encoding"] === "gzip")
      text = gunzipSync(raw).toString("utf8");
    if (text.startsWith("data=")) text = Buffer.from(decodeURIComponent(text.slice(5)), "base64").toString("utf8");
    if (!text.trim()) return [];
    const body = JSON.parse(text) as unknown;
    if (Array.isArray(body)) return body;
    const batch = (body as { batch?: unknown[] }).batch;
    return batch ?? [body];
  }

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      response.setHeader("access-control-allow-origin", request.headers.origin ?? "*");
      response.setHeader("access-control-allow-credentials", "true");
      response.setHeader("access-control-allow-headers", request.headers["access-control-request-headers"] ?? "*");
      response.setHeader("access-control-allow-methods", "GET, POST, OPTIONS");
      if (request.method === "OPTIONS") return response.writeHead(204).end();
      const path = new URL(request.url ?? "/", "http://fake").pathname;
      requests.push(`${request.method} ${path}`);
      if (request.method === "POST" && /^\/(e|i\/v0\/e|batch|capture)\/?$/.test(path)) {
        try {
          for (const entry of decode(request, Buffer.concat(chunks))) events.push(entry as CapturedEvent);
        } catch {
          return response.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: "bad body" }));
        }
        return response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ status: 1 }));
      }
      // Flags, remote config, surveys: nothing switched on.
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ featureFlags: {}, flags: {}, surveys: [] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    events,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
