import type { Request as ExpressRequest, Response as ExpressResponse } from "express";
import { sessionTokenFromCookie } from "../shared/session-cookie";
import type { Logger } from "./logger.server";
import { REQUEST_ID_HEADER, requestIdOf } from "./request-id.server";

const FORWARDED_REQUEST_HEADERS = ["content-type", "accept", "authorization"];
const FORWARDED_RESPONSE_HEADERS = ["content-type"];

/**
 * Hosted-API mode: the browser still talks only to this origin's /graphql; the request
 * goes on to GRAPHQL_URL with the bearer token from the HttpOnly session cookie (the
 * browser never sees the token). The app's own cookies do not travel to the API host.
 */
export function graphqlProxy(graphqlUrl: string, logger?: Pick<Logger, "error">) {
  return async (req: ExpressRequest, res: ExpressResponse) => {
    const headers = new Headers();
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const value = req.get(name);
      if (value) headers.set(name, value);
    }
    const token = sessionTokenFromCookie(req.get("cookie"));
    if (token && !headers.has("authorization")) headers.set("authorization", `Bearer ${token}`);
    // The hosted API may log it too (if it trusts this server as its proxy): one id across both logs.
    const requestId = requestIdOf(req);
    if (requestId) headers.set(REQUEST_ID_HEADER, requestId);
    const target = new URL(graphqlUrl);
    const query = req.url.indexOf("?");
    if (query !== -1) target.search = req.url.slice(query);
    // Asked with the visitor's token, whatever the API says: no cache keeps the answer.
    res.setHeader("Cache-Control", "private, no-store");
    try {
      const upstream = await fetch(target, {
        method: req.method,
        headers,
        body: req.method === "GET" || req.method === "HEAD" ? undefined : (req as unknown as ReadableStream),
        duplex: "half",
        signal: AbortSignal.timeout(30_000),
      } as RequestInit);
      res.status(upstream.status);
      for (const name of FORWARDED_RESPONSE_HEADERS) {
        const value = upstream.headers.get(name);
        if (value) res.setHeader(name, value);
      }
      res.send(Buffer.from(await upstream.arrayBuffer()));
    } catch (error) {
      res.status(502).json({ errors: [{ message: "The GraphQL API cannot be reached", extensions: { code: "BAD_GATEWAY" } }] });
      const message = `[graphql] ${target.host} unreachable: ${(error as Error).message}`;
      if (logger) logger.error({ reqId: requestId }, message);
      else console.error(message);
    }
  };
}

/** The fetch loaders use in hosted mode: every operation goes to GRAPHQL_URL (query string kept), with the page's request id. */
export function hostedGraphQLFetch(graphqlUrl: string, requestId?: string): typeof fetch {
  return (input, init) => {
    const target = new URL(graphqlUrl);
    const requested = new URL(input instanceof Request ? input.url : String(input), "http://weatherbot.internal");
    if (requested.search) target.search = requested.search;
    const headers = new Headers(init?.headers);
    if (requestId) headers.set(REQUEST_ID_HEADER, requestId);
    return fetch(target, { ...init, headers, signal: init?.signal ?? AbortSignal.timeout(30_000) });
  };
}
