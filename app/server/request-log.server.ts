import type { IncomingMessage, ServerResponse } from "node:http";
import { isGraphQLPath } from "../shared/graphql-path";
import type { Logger } from "./logger.server";
import type { ServerMetrics } from "./metrics.server";
import type { OperationLogRecord } from "../api/log.server";
import { assignRequestId } from "./request-id.server";
import type { TrustFn } from "./trusted-proxy.server";

/** What a path serves, as a label with few values (paths themselves would be one series each). */
export function routeKind(path: string): string {
  if (isGraphQLPath(path)) return "graphql";
  if (path === "/healthz") return "health";
  if (path === "/metrics") return "metrics";
  if (path.endsWith(".data")) return "data";
  if (path.startsWith("/assets/") || /\.[A-Za-z0-9]+$/.test(path)) return "asset";
  return "page";
}

/** A request's id, and what the API says of the operation a /graphql request ran (for the request's line). */
export type RequestObservation = { id: string; operation: OperationLogRecord };

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * Every HTTP request, whatever serves it: an id (see assignRequestId), one log line when
 * it ends (id, method, path without its query, status, duration; for /graphql also the
 * operation's name, type and error codes) and its duration in /metrics. A response cut off
 * before it was sent in full is logged with `aborted`.
 */
export function observeRequests({ trust, logger, metrics }: { trust: TrustFn; logger: Logger; metrics: ServerMetrics }) {
  return (req: IncomingMessage, res: ServerResponse): RequestObservation => {
    const started = performance.now();
    const reqId = assignRequestId(req, res, trust);
    const observation: RequestObservation = { id: reqId, operation: {} };
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const path = query === -1 ? url : url.slice(0, query);
    res.once("close", () => {
      const seconds = (performance.now() - started) / 1000;
      const status = res.statusCode;
      const method = req.method && METHODS.has(req.method) ? req.method : "OTHER";
      metrics.httpRequest(method, routeKind(path), status, seconds);
      // A /graphql request's operation (name, type, error codes) is described in this line, not one of its own.
      const fields = { reqId, method: req.method, path, status, ms: Math.round(seconds * 10_000) / 10, ...observation.operation };
      if (!res.writableFinished) logger.warn({ ...fields, aborted: true }, "request");
      else if (status >= 500) logger.error(fields, "request");
      else logger.info(fields, "request");
    });
    return observation;
  };
}
