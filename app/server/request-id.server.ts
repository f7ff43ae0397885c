import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { OperationLogRecord } from "../api/log.server";
import type { TrustFn } from "./graphql-endpoint.server";

export const REQUEST_ID_HEADER = "X-Request-Id";

/**
 * What an incoming id may look like: a proxy's own (nginx's $request_id: 32 hex digits, a
 * UUID, a trace id), never a place for log injection or a megabyte of header.
 */
const SANE_ID = /^[A-Za-z0-9][A-Za-z0-9._:+=@-]{0,127}$/;

const REQUEST_ID = Symbol("weatherbot.requestId");
const OPERATION_LOG = Symbol("weatherbot.operationLog");
type WithRequestId = IncomingMessage & { [REQUEST_ID]?: string; [OPERATION_LOG]?: OperationLogRecord };

/**
 * The request's id: the X-Request-Id a trusted proxy (TRUST_PROXY, as for X-Forwarded-For)
 * sends, when it is a sane token, so the proxy's log and this one share it; otherwise a
 * fresh UUID. Anyone else's header is ignored: a client must not choose the id its
 * requests are logged under. Decided once per request, answered in the response header.
 */
export function assignRequestId(req: IncomingMessage, res: ServerResponse, trust: TrustFn): string {
  const incoming = req.headers["x-request-id"];
  const id = typeof incoming === "string" && SANE_ID.test(incoming) && trust(req.socket.remoteAddress ?? "", 0) ? incoming : randomUUID();
  (req as WithRequestId)[REQUEST_ID] = id;
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/** The id assignRequestId gave this request (undefined for one that did not pass through it). */
export function requestIdOf(req: IncomingMessage): string | undefined {
  return (req as WithRequestId)[REQUEST_ID];
}

/** A record the API fills with the request's operation (name, type, error codes), for the request's own log line. */
export function operationLogFor(req: IncomingMessage): OperationLogRecord {
  const record: OperationLogRecord = {};
  (req as WithRequestId)[OPERATION_LOG] = record;
  return record;
}

/** What the API put in the request's operation record (undefined: the request ran no operation through the endpoint). */
export function operationLogOf(req: IncomingMessage): OperationLogRecord | undefined {
  return (req as WithRequestId)[OPERATION_LOG];
}
