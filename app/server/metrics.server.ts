import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import proxyAddr from "proxy-addr";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { ApiMetrics } from "../api/metrics.server";
import type { TrustFn } from "./trusted-proxy.server";

/** Operation names and error codes come from clients: at most this many of each get their own series. */
const MAX_LABEL_VALUES = 200;

/** A label's values as given, up to `max` distinct ones (then "other"), so no client can grow the registry without end. */
function boundedLabel(max: number, valid: RegExp) {
  const seen = new Set<string>();
  return (value: string): string => {
    if (seen.has(value)) return value;
    if (seen.size >= max || !valid.test(value)) return "other";
    seen.add(value);
    return value;
  };
}

/**
 * A metric's child per label values, cached: prom-client hashes a labels object on every
 * observation, which cost more than the observation itself on the API's hottest path.
 */
function children<Child>(child: (...values: string[]) => Child) {
  const cached = new Map<string, Child>();
  return (...values: string[]): Child => {
    const key = values.join("\0");
    let found = cached.get(key);
    if (found === undefined) {
      found = child(...values);
      cached.set(key, found);
    }
    return found;
  };
}

const SECONDS_FAST = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const SECONDS_SLOW = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export type ServerMetrics = {
  registry: Registry;
  /** What the embedded API counts through (app/api/metrics.server.ts). */
  api: ApiMetrics;
  httpRequest(method: string, route: string, status: number, seconds: number): void;
};

/**
 * This process's metrics, in a registry of its own (not prom-client's global one, so a
 * test process may build several servers). Each instance exposes only its own: Prometheus
 * scrapes every instance, and sums across them.
 */
export function createServerMetrics(): ServerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const http = new Histogram({
    name: "weatherbot_http_request_duration_seconds",
    help: "HTTP requests by method, route kind (page, data, graphql, asset, health, metrics) and status class, until the response ended",
    labelNames: ["method", "route", "status_class"] as const,
    buckets: SECONDS_FAST,
    registers: [registry],
  });
  const operations = new Histogram({
    name: "weatherbot_graphql_operation_duration_seconds",
    help: "GraphQL operations executed (answers kept by the result cache included), by operation name and type",
    labelNames: ["operation", "type"] as const,
    buckets: SECONDS_FAST,
    registers: [registry],
  });
  const operationErrors = new Counter({
    name: "weatherbot_graphql_operation_errors_total",
    help: "Errors in GraphQL answers, by operation name and extensions.code",
    labelNames: ["operation", "code"] as const,
    registers: [registry],
  });
  const weather = new Histogram({
    name: "weatherbot_weather_upstream_request_duration_seconds",
    help: "HTTP requests to Open-Meteo (each retry is one) until the answer's headers, by endpoint and outcome (ok, error)",
    labelNames: ["endpoint", "outcome"] as const,
    buckets: SECONDS_FAST,
    registers: [registry],
  });
  const cacheLookups = new Counter({
    name: "weatherbot_cache_lookups_total",
    help: "Lookups in the result cache (signed-in queries) and the forecast and air-quality caches (in memory), by result (hit, miss)",
    labelNames: ["cache", "result"] as const,
    registers: [registry],
  });
  const engineTicks = new Histogram({
    name: "weatherbot_engine_tick_duration_seconds",
    help: "This instance's pass of a bot engine tick, by outcome (ok, error)",
    labelNames: ["outcome"] as const,
    buckets: SECONDS_SLOW,
    registers: [registry],
  });
  const messages = new Counter({
    name: "weatherbot_messages_written_total",
    help: "Messages this instance wrote to inboxes, by kind",
    labelNames: ["kind"] as const,
    registers: [registry],
  });
  const pushes = new Counter({
    name: "weatherbot_pushes_sent_total",
    help: "Pushes posted to push services, by outcome (delivered, gone, refused, unreachable)",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  const subscriptions = new Gauge({
    name: "weatherbot_graphql_subscriptions_open",
    help: "GraphQL subscriptions open on this instance",
    registers: [registry],
  });
  subscriptions.set(0);

  const operationName = boundedLabel(MAX_LABEL_VALUES, /^[A-Za-z_][A-Za-z0-9_]{0,99}$/);
  const errorCode = boundedLabel(MAX_LABEL_VALUES, /^[A-Z][A-Z0-9_]{0,63}$/);
  const messageKind = boundedLabel(50, /^[A-Za-z][A-Za-z0-9_]{0,31}$/);

  const httpChild = children((...values) => http.labels(...values));
  const operationChild = children((...values) => operations.labels(...values));
  const errorChild = children((...values) => operationErrors.labels(...values));
  const weatherChild = children((...values) => weather.labels(...values));
  const lookupChild = children((...values) => cacheLookups.labels(...values));
  const tickChild = children((...values) => engineTicks.labels(...values));
  const messageChild = children((...values) => messages.labels(...values));
  const pushChild = children((...values) => pushes.labels(...values));
  const STATUS_CLASSES = ["0xx", "1xx", "2xx", "3xx", "4xx", "5xx"];

  return {
    registry,
    httpRequest(method, route, status, seconds) {
      httpChild(method, route, STATUS_CLASSES[Math.floor(status / 100)] ?? "5xx").observe(seconds);
    },
    api: {
      operation({ name, type, seconds, errorCodes }) {
        const operation = operationName(name);
        operationChild(operation, type).observe(seconds);
        for (const code of errorCodes) errorChild(operation, errorCode(code)).inc();
      },
      weatherCall: (endpoint, outcome, seconds) => weatherChild(endpoint, outcome).observe(seconds),
      cacheLookup: (cache, hit) => lookupChild(cache, hit ? "hit" : "miss").inc(),
      engineTick: (seconds, outcome) => tickChild(outcome).observe(seconds),
      messageWritten: (kind) => messageChild(messageKind(kind)).inc(),
      pushSent: (outcome) => pushChild(outcome).inc(),
      subscriptions: (delta) => subscriptions.inc(delta),
    },
  };
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/**
 * GET /metrics in Prometheus' text format, for: clients at an address METRICS_ALLOW lists
 * (the client address as TRUST_PROXY reads it, so a request a trusted proxy forwards counts
 * as its client's, not the proxy's), and anyone with `Authorization: Bearer <METRICS_TOKEN>`.
 * A request that names a forwarded client (X-Forwarded-For) through a proxy that is not
 * trusted has no address to go by: a reverse proxy on loopback that TRUST_PROXY does not
 * name would otherwise open /metrics to everyone it forwards.
 * Others get 404, as for a path that does not exist, so the endpoint is not advertised; a
 * wrong token gets 403 (its sender knows the endpoint, and learns only that the token is wrong).
 */
export function metricsEndpoint(options: {
  registry: Registry;
  allow: readonly string[];
  token: string | undefined;
  clientIp: (req: IncomingMessage) => string;
  trust: TrustFn;
}) {
  const allowed = options.allow.length > 0 ? proxyAddr.compile([...options.allow]) : () => false;
  const expected = options.token ? digest(options.token) : null;
  return (req: IncomingMessage, res: ServerResponse) => {
    const refuse = (status: 403 | 404) => {
      res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" });
      res.end(status === 404 ? "Not Found" : "Forbidden");
    };
    const unknownClient = req.headers["x-forwarded-for"] !== undefined && !options.trust(req.socket.remoteAddress ?? "", 0);
    if (unknownClient || !allowed(options.clientIp(req), 0)) {
      const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
      if (!expected || bearer === undefined) return refuse(404);
      if (!timingSafeEqual(digest(bearer), expected)) return refuse(403);
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8" });
      res.end("Method Not Allowed");
      return;
    }
    options.registry.metrics().then(
      (text) => {
        res.writeHead(200, {
          "Content-Type": options.registry.contentType,
          "Cache-Control": "no-store",
          "X-Content-Type-Options": "nosniff",
        });
        res.end(req.method === "HEAD" ? undefined : text);
      },
      (error: unknown) => {
        res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
        res.end(`Metrics could not be collected: ${(error as Error).message}`);
      },
    );
  };
}

/** Whether a request target is /metrics. */
export const isMetricsPath = (url: string | undefined) => url === "/metrics" || !!url?.startsWith("/metrics?");
