import type { IncomingMessage, ServerResponse } from "node:http";
import { tooManyRequests, type LimitRule, type RequestLimits } from "../api/request-limits.server";
import { DEFAULT_LOCALE, matchLocale } from "../lib/i18n/config";
import { readLocaleCookie } from "../lib/i18n/locale-cookie.server";
import { allResources } from "../lib/i18n/resources.server";

/** The person's words for a refused page, in their language (the locale cookie, else Accept-Language). */
function refusalText(req: IncomingMessage): { locale: string; text: string } {
  const locale = readLocaleCookie(req.headers.cookie ?? null) ?? matchLocale(req.headers["accept-language"]) ?? DEFAULT_LOCALE;
  const common = allResources[locale]?.common as { errors?: { rateLimited?: string } } | undefined;
  return { locale, text: common?.errors?.rateLimited ?? "Too many requests" };
}

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Counts one request from `clientIp` under `rule`; over the limit it answers 429 with
 * Retry-After itself and returns true. /graphql's refusal is a GraphQL error
 * (`extensions.code: "RATE_LIMITED"`, as a refused log-in's), so the page's client shows its
 * toast; a page's is a short page in the person's language.
 */
export function refusedOverLimit(
  limits: RequestLimits,
  rule: LimitRule,
  clientIp: string,
  req: IncomingMessage,
  res: ServerResponse,
  kind: "graphql" | "page",
): boolean {
  const verdict = limits.take(rule, clientIp);
  if (!verdict.limited) return false;
  res.statusCode = 429;
  res.setHeader("Retry-After", String(verdict.retryAfterSeconds));
  res.setHeader("Cache-Control", "no-store");
  if (kind === "graphql") {
    res.setHeader("Content-Type", "application/json; charset=utf-8");
    res.end(JSON.stringify({ errors: [tooManyRequests(verdict.retryAfterSeconds).toJSON()] }));
  } else {
    const { locale, text } = refusalText(req);
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.end(`<!doctype html><html lang="${locale}"><meta charset="utf-8"><title>429</title><p>${escapeHtml(text)}</p></html>`);
  }
  return true;
}
