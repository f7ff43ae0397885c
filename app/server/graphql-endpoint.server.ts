import type { IncomingMessage, ServerResponse } from "node:http";
import compression from "compression";
import type { RequestLimits } from "../api/request-limits.server";
import { refusedOverLimit } from "./request-limit.server";
import { CROSS_SITE_REFUSAL, isCrossSiteWrite } from "./same-origin.server";
import type { OperationLogRecord } from "../api/log.server";
import type { RequestObservation } from "./request-log.server";
import { securityHeaders } from "./security-headers.server";
import { clientAddress, type TrustFn } from "./trusted-proxy.server";

import { GRAPHQL_PATH } from "../shared/graphql-path";

export { GRAPHQL_PATH };

/** graphql-yoga's Node handler, told the client's address and the request's id (for its log lines). */
type YogaNodeHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  context: { clientIp: string; requestId?: string; operationLog?: OperationLogRecord },
) => unknown;

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/** The host the client asked for: X-Forwarded-Host only from a trusted proxy (as Express's `req.host`). */
function requestHost(req: IncomingMessage, trust: TrustFn): string | undefined {
  const forwarded = req.headers["x-forwarded-host"];
  if (typeof forwarded === "string" && forwarded !== "" && trust(req.socket.remoteAddress ?? "", 0)) {
    return forwarded.split(",")[0]!.trimEnd();
  }
  return req.headers.host || undefined;
}

/**
 * The request's body, read whole before the API sees it, so the size limit is kept here:
 * yoga's own limit re-streamed every body through a TransformStream and a pipeline, which
 * cost about a third of the API's throughput (it is off, see app/api/index.server.ts).
 * Null when it is larger than `limit`.
 */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"]);
    if (declared > limit) {
      resolve(null);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // The rest is drained unread: nothing is kept of a body that is refused.
        req.removeAllListeners("data");
        req.removeAllListeners("end");
        req.resume();
        resolve(null);
      } else {
        chunks.push(chunk);
      }
    });
    req.on("end", () => resolve(Buffer.concat(chunks, size)));
    req.on("error", reject);
  });
}

function refuse(res: ServerResponse, status: number, body: { error: string; code: string }) {
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.end(JSON.stringify(body));
}

/**
 * Answers carry tokens (signUp, logIn) and a person's data: no browser or shared cache may
 * keep them, nor bring them back to the next person at the same browser.
 */
const noStore: Middleware = (_req, res, next) => {
  res.setHeader("Cache-Control", "private, no-store");
  next();
};

/**
 * The embedded API's /graphql as a plain Node handler, served beside Express rather than
 * through it: Express's per-request setup cost ≈ 20 % of the API's throughput under the
 * benchmark's load. It keeps what the Express routes have: the same security headers,
 * compression, the same refusal of cross-site writes, and the client's address as
 * Express's "trust proxy" setting reads it.
 */
export function createGraphQLEndpoint(options: {
  yoga: YogaNodeHandler;
  trust: TrustFn;
  maxBodyBytes: number;
  limits?: RequestLimits;
  /** Where a failure before the API is logged (the server's logger; the console by default). */
  logError?: (fields: { reqId?: string; err: unknown }, message: string) => void;
}) {
  const logError = options.logError ?? ((fields, message) => console.error(message, fields.err));
  const clientIp = clientAddress(options.trust);
  const chain: Middleware[] = [securityHeaders(options.trust), noStore, compression() as unknown as Middleware];
  // The observation (the request's id and the record its log line reads) comes from the server; tests' servers give none.
  return (req: IncomingMessage, res: ServerResponse, observation?: RequestObservation) => {
    const context = (clientIpOf: string) => ({ clientIp: clientIpOf, requestId: observation?.id, operationLog: observation?.operation });
    const run = (index: number) => (error?: unknown) => {
      if (error) {
        logError({ reqId: observation?.id, err: error }, "[graphql] request failed before the API:");
        refuse(res, 500, { error: "Internal Server Error", code: "INTERNAL_SERVER_ERROR" });
      } else if (index < chain.length) {
        chain[index]!(req, res, run(index + 1));
      } else if (isCrossSiteWrite(req.method ?? "GET", req.headers, requestHost(req, options.trust))) {
        refuse(res, 403, CROSS_SITE_REFUSAL);
      } else if (options.limits && refusedOverLimit(options.limits, "requests", clientIp(req), req, res)) {
        // Refused before its body is read: a client over the limit costs as little as it can.
        req.resume();
      } else if (req.method === "GET" || req.method === "HEAD") {
        void options.yoga(req, res, context(clientIp(req)));
      } else {
        readBody(req, options.maxBodyBytes).then(
          (body) => {
            if (!body)
              return refuse(res, 413, { error: `Request body larger than ${options.maxBodyBytes} bytes`, code: "PAYLOAD_TOO_LARGE" });
            // A body already read is what frameworks' body parsers leave; yoga takes it as is.
            (req as IncomingMessage & { body?: Buffer }).body = body;
            void options.yoga(req, res, context(clientIp(req)));
          },
          () => refuse(res, 400, { error: "The request body could not be read", code: "BAD_REQUEST" }),
        );
      }
    };
    run(0)();
  };
}

/** What yoga's in-process entry needs: a URL, request options, and who the client is. */
type YogaFetch = (url: string, init: RequestInit, context: { clientIp: string; requestId?: string }) => Response | Promise<Response>;

/**
 * The `fetch` loaders and actions use when the API is embedded: operations run inside this
 * process (no HTTP round trip to itself), as the page's client address and under the
 * page's request id, so the operations' log lines carry the page's id.
 */
export function inProcessGraphQLFetch(yogaFetch: YogaFetch, clientIp: string, requestId?: string): typeof fetch {
  return (input, init) =>
    Promise.resolve(yogaFetch(input instanceof Request ? input.url : String(input), init ?? {}, { clientIp, requestId }));
}
