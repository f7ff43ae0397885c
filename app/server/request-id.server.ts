import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TrustFn } from "./trusted-proxy.server";

export const REQUEST_ID_HEADER = "X-Request-Id";

/**
 * What an incoming id may look like: a proxy's own (nginx's $request_id: 32 hex digits, a
 * UUID, a trace id), never a place for log injection or a megabyte of header.
 */
const SANE_ID = /^[A-Za-z0-9][A-Za-z0-9._:+=@-]{0,127}$/;

/**
 * The request's id: the X-Request-Id a trusted proxy (TRUST_PROXY, as for X-Forwarded-For)
 * sends, when it is a sane token, so the proxy's log and this one share it; otherwise a
 * fresh UUID. Anyone else's header is ignored: a client must not choose the id its
 * requests are logged under. Decided once per request, answered in the response header.
 */
export function assignRequestId(req: IncomingMessage, res: ServerResponse, trust: TrustFn): string {
  const incoming = req.headers["x-request-id"];
  const id = typeof incoming === "string" && SANE_ID.test(incoming) && trust(req.socket.remoteAddress ?? "", 0) ? incoming : randomUUID();
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/*
 * Express's routes read the id from the request itself. /graphql is handed it as an argument
 * instead: a property added to every IncomingMessage changes its hidden class, which slowed
 * the API's hot path (yoga reads many of the request's properties) measurably.
 */
const REQUEST_ID = Symbol("weatherbot.requestId");
type WithRequestId = IncomingMessage & { [REQUEST_ID]?: string };

/** Gives an Express request its id (see requestIdOf). */
export function attachRequestId(req: IncomingMessage, id: string): void {
  (req as WithRequestId)[REQUEST_ID] = id;
}

/** The id attachRequestId gave this request (undefined for one that did not get one). */
export function requestIdOf(req: IncomingMessage): string | undefined {
  return (req as WithRequestId)[REQUEST_ID];
}
