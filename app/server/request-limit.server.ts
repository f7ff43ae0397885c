import type { IncomingMessage, ServerResponse } from "node:http";
import { tooManyRequests, type LimitRule, type RequestLimits } from "../api/request-limits.server";

/** Writes the body of a 429 (status and Retry-After are set already). */
export type Refusal = (req: IncomingMessage, res: ServerResponse, retryAfterSeconds: number) => void;

/** /graphql's refusal: a GraphQL error (`extensions.code: "RATE_LIMITED"`, as a refused log-in's), so the page's client shows its toast. */
export const graphqlRefusal: Refusal = (_req, res, retryAfterSeconds) => {
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.end(JSON.stringify({ errors: [tooManyRequests(retryAfterSeconds).toJSON()] }));
};

/**
 * Counts one request from `clientIp` under `rule`; over the limit it answers 429 with
 * Retry-After itself (the body from `refusal`) and returns true.
 */
export function refusedOverLimit(
  limits: RequestLimits,
  rule: LimitRule,
  clientIp: string,
  req: IncomingMessage,
  res: ServerResponse,
  refusal: Refusal = graphqlRefusal,
): boolean {
  const verdict = limits.take(rule, clientIp);
  if (!verdict.limited) return false;
  res.statusCode = 429;
  res.setHeader("Retry-After", String(verdict.retryAfterSeconds));
  res.setHeader("Cache-Control", "no-store");
  refusal(req, res, verdict.retryAfterSeconds);
  return true;
}
