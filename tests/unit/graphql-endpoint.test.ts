import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import proxyAddr from "proxy-addr";
import { afterEach, describe, expect, it } from "vitest";
import { createGraphQLEndpoint } from "~/server/graphql-endpoint.server";
import type { TrustFn } from "~/server/trusted-proxy.server";
import { isGraphQLPath } from "~/shared/graphql-path";

/** What reached the API behind the endpoint. */
type Seen = { clientIp: string; method: string; body?: string };

const MAX_BODY_BYTES = 100;

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** The endpoint in front of a stand-in API that answers a large JSON body and records who asked. */
async function endpointWith(trust: TrustFn) {
  const seen: Seen[] = [];
  const endpoint = createGraphQLEndpoint({
    trust,
    maxBodyBytes: MAX_BODY_BYTES,
    yoga(req, res, { clientIp }) {
      const body = (req as typeof req & { body?: Buffer }).body;
      seen.push({ clientIp, method: req.method!, ...(body ? { body: body.toString("utf8") } : {}) });
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify({ data: { items: Array.from({ length: 200 }, (_, index) => ({ index, name: "weather" })) } }));
    },
  });
  const server = createServer(endpoint);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  return { url, seen };
}

const post = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: "{}" });

describe("the /graphql endpoint beside Express", () => {
  it("takes the client's address from X-Forwarded-For only when the proxy is trusted", async () => {
    const trusted = await endpointWith(proxyAddr.compile("loopback"));
    await post(trusted.url, { "x-forwarded-for": "203.0.113.9" });
    await post(trusted.url);
    expect(trusted.seen.map((request) => request.clientIp)).toEqual(["203.0.113.9", "127.0.0.1"]);

    const untrusted = await endpointWith(proxyAddr.compile([]));
    await post(untrusted.url, { "x-forwarded-for": "203.0.113.9" });
    expect(untrusted.seen.map((request) => request.clientIp)).toEqual(["127.0.0.1"]);
  });

  it("refuses cross-site writes before the API sees them, and lets same-site ones and reads through", async () => {
    const { url, seen } = await endpointWith(proxyAddr.compile("loopback"));
    const refused = await post(url, { origin: "https://evil.example" });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: "Cross-site request refused", code: "FORBIDDEN" });
    expect((await post(url, { "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect(seen).toEqual([]);

    const host = new URL(url).host;
    expect((await post(url, { origin: `http://${host}` })).status).toBe(200);
    expect((await post(url, { "sec-fetch-site": "same-origin" })).status).toBe(200);
    expect((await fetch(url, { headers: { origin: "https://evil.example" } })).status).toBe(200);
    expect(seen.map((request) => request.method)).toEqual(["POST", "POST", "GET"]);
  });

  it("reads a body up to its limit and hands it over whole; a larger one is refused with 413", async () => {
    const { url, seen } = await endpointWith(proxyAddr.compile("loopback"));
    // The endpoint's upstream is a fake that records bodies: the bytes are what is tested, not an operation.
    const query = JSON.stringify({ query: "{ me { id } }" });
    expect((await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: query })).status).toBe(200);
    expect(seen.at(-1)!.body).toBe(query);

    const big = "x".repeat(MAX_BODY_BYTES + 1);
    const declared = await fetch(url, { method: "POST", body: big });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({ error: `Request body larger than ${MAX_BODY_BYTES} bytes`, code: "PAYLOAD_TOO_LARGE" });
    // Without a Content-Length (chunked), the count is kept while reading.
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big.slice(0, 60)));
        controller.enqueue(new TextEncoder().encode(big.slice(60)));
        controller.close();
      },
    });
    const chunked = await fetch(url, { method: "POST", body: stream, duplex: "half" } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(seen).toHaveLength(1);
  });

  it("reads the host from X-Forwarded-Host only from a trusted proxy", async () => {
    const headers = { origin: "https://weather.example", "x-forwarded-host": "weather.example" };
    const trusted = await endpointWith(proxyAddr.compile("loopback"));
    expect((await post(trusted.url, headers)).status).toBe(200);
    const untrusted = await endpointWith(proxyAddr.compile([]));
    expect((await post(untrusted.url, headers)).status).toBe(403);
  });

  it("sends the server's security headers and compresses large answers", async () => {
    const { url } = await endpointWith(proxyAddr.compile("loopback"));
    const response = await post(url, { "accept-encoding": "gzip" });
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("content-security-policy")).toBeNull();
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(((await response.json()) as { data: { items: unknown[] } }).data.items).toHaveLength(200);
  });
});

describe("isGraphQLPath", () => {
  it.each([
    ["/graphql", true],
    ["/graphql?query=%7B__typename%7D", true],
    ["/graphqlx", false],
    ["/graphql/more", false],
    ["/", false],
    [undefined, false],
  ])("%j → %j", (url, expected) => {
    expect(isGraphQLPath(url)).toBe(expected);
  });
});
