import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createServerMetrics, metricsEndpoint } from "~/server/metrics.server";
import { parsePrometheusText } from "../support/prometheus-text";

const TOKEN = "a-metrics-token-of-32-characters";

let server: Server | null = null;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** /metrics as the app serves it, with the client address the test says (as TRUST_PROXY would have read it). */
async function serve(options: { allow: string[]; token?: string; clientIp: string; trustProxy?: boolean }) {
  const metrics = createServerMetrics();
  metrics.httpRequest("GET", "page", 200, 0.01);
  const handler = metricsEndpoint({
    registry: metrics.registry,
    allow: options.allow,
    token: options.token,
    clientIp: () => options.clientIp,
    trust: () => options.trustProxy ?? false,
  });
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
}

describe("/metrics access", () => {
  it("answers an allowed address (loopback by default) in Prometheus' text format", async () => {
    const url = await serve({ allow: ["loopback"], clientIp: "127.0.0.1" });
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const parsed = parsePrometheusText(await response.text());
    expect(parsed.types.get("weatherbot_http_request_duration_seconds")).toBe("histogram");
    expect(parsed.types.get("process_cpu_user_seconds_total")).toBe("counter");
  });

  it("answers addresses inside an allowed subnet, and 404 outside it without a token", async () => {
    expect((await fetch(await serve({ allow: ["10.0.0.0/8"], clientIp: "10.1.2.3" }))).status).toBe(200);
    server!.close();
    const outside = await fetch(await serve({ allow: ["10.0.0.0/8"], clientIp: "203.0.113.9" }));
    expect(outside.status).toBe(404);
    expect(await outside.text()).not.toContain("weatherbot_");
  });

  it("does not take a request forwarded by a proxy it does not trust for the proxy's own (loopback) address", async () => {
    const url = await serve({ allow: ["loopback"], token: TOKEN, clientIp: "127.0.0.1" });
    expect((await fetch(url, { headers: { "x-forwarded-for": "203.0.113.9" } })).status).toBe(404);
    expect((await fetch(url, { headers: { "x-forwarded-for": "203.0.113.9", authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    server!.close();
    // Trusted, the proxy's forwarded address is the client's (here: clientIp), and it is allowed.
    const trusted = await serve({ allow: ["loopback"], clientIp: "127.0.0.1", trustProxy: true });
    expect((await fetch(trusted, { headers: { "x-forwarded-for": "127.0.0.1" } })).status).toBe(200);
  });

  it("answers anyone with the bearer token, refuses a wrong token with 403", async () => {
    const url = await serve({ allow: [], token: TOKEN, clientIp: "203.0.113.9" });
    expect((await fetch(url)).status).toBe(404);
    expect((await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    const wrong = await fetch(url, { headers: { authorization: `Bearer ${TOKEN.slice(1)}x` } });
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).not.toContain("weatherbot_");
  });

  it("ignores a bearer token when none is configured: 404 as for anyone", async () => {
    const url = await serve({ allow: [], clientIp: "203.0.113.9" });
    expect((await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  });

  it("refuses other methods than GET and HEAD", async () => {
    const url = await serve({ allow: ["loopback"], clientIp: "127.0.0.1" });
    expect((await fetch(url, { method: "POST" })).status).toBe(405);
  });
});

describe("metric labels from clients", () => {
  it("stop growing after 200 distinct operation names: the rest count as other", async () => {
    const metrics = createServerMetrics();
    for (let index = 0; index < 250; index++) metrics.api.operation({ name: `Op${index}`, type: "query", seconds: 0.001, errorCodes: [] });
    metrics.api.operation({ name: "not a name!", type: "query", seconds: 0.001, errorCodes: [] });
    const parsed = parsePrometheusText(await metrics.registry.metrics());
    const names = new Set(
      parsed.samples
        .filter((sample) => sample.name === "weatherbot_graphql_operation_duration_seconds_count")
        .map((s) => s.labels.operation),
    );
    expect(names.size).toBe(201);
    expect(names.has("other")).toBe(true);
    expect(names.has("Op249")).toBe(false);
  });
});
