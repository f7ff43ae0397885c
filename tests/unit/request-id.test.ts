import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import proxyAddr from "proxy-addr";
import { afterEach, describe, expect, it } from "vitest";
import type { TrustFn } from "~/server/trusted-proxy.server";
import { assignRequestId } from "~/server/request-id.server";
import { routeKind } from "~/server/request-log.server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let server: Server | null = null;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server that assigns ids as the app's does, under `trust`, and answers with the id it chose. */
async function serve(trust: TrustFn): Promise<string> {
  server = createServer((req: IncomingMessage, res) => {
    res.end(assignRequestId(req, res, trust));
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

async function idFor(url: string, incoming?: string) {
  const response = await fetch(url, { headers: incoming === undefined ? {} : { "x-request-id": incoming } });
  const body = await response.text();
  expect(response.headers.get("x-request-id")).toBe(body);
  return body;
}

describe("request ids", () => {
  it("take a trusted proxy's sane X-Request-Id, and answer with it", async () => {
    const url = await serve(proxyAddr.compile("loopback"));
    expect(await idFor(url, "0f1e2d3c4b5a69788796a5b4c3d2e1f0")).toBe("0f1e2d3c4b5a69788796a5b4c3d2e1f0");
    expect(await idFor(url, "req-42.a:b")).toBe("req-42.a:b");
  });

  it("generate one when the proxy's is not a sane token (too long, spaces, a log line)", async () => {
    const url = await serve(proxyAddr.compile("loopback"));
    for (const incoming of ["x".repeat(129), "two words", '","level":"fatal', "-leading-dash", ""]) {
      expect(await idFor(url, incoming), incoming).toMatch(UUID);
    }
  });

  it("ignore the header from a client that is not a trusted proxy", async () => {
    const url = await serve(proxyAddr.compile([]));
    expect(await idFor(url, "chosen-by-the-client")).toMatch(UUID);
    const first = await idFor(url);
    expect(first).toMatch(UUID);
    expect(await idFor(url)).not.toBe(first);
  });
});

describe("route kinds (the request histogram's label)", () => {
  it.each([
    ["/graphql", "graphql"],
    ["/healthz", "health"],
    ["/metrics", "metrics"],
    ["/settings.data", "data"],
    ["/_root.data", "data"],
    ["/assets/entry-abc.js", "asset"],
    ["/sw.js", "asset"],
    ["/favicon.svg", "asset"],
    ["/", "page"],
    ["/settings", "page"],
    ["/__test/error", "page"],
  ])("%s is %s", (path, kind) => {
    expect(routeKind(path)).toBe(kind);
  });
});
