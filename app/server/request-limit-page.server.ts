import { DEFAULT_LOCALE, matchLocale } from "../lib/i18n/config";
import { readLocaleCookie } from "./i18n/locale-cookie.server";
import { allResources } from "./i18n/resources.server";
import type { Refusal } from "./request-limit.server";

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A page's refusal: one line in the person's language (the locale cookie, else Accept-Language).
 * Apart from request-limit.server.ts, which /graphql's handler uses: the locales are loaded
 * through Vite, which the test servers' /graphql runs without.
 */
export const pageRefusal: Refusal = (req, res) => {
  const locale = readLocaleCookie(req.headers.cookie ?? null) ?? matchLocale(req.headers["accept-language"]) ?? DEFAULT_LOCALE;
  const common = allResources[locale]?.common as { errors?: { rateLimited?: string } } | undefined;
  const text = common?.errors?.rateLimited ?? "Too many requests";
  res.setHeader("Content-Type", "text/html; charset=utf-8");
  res.end(`<!doctype html><html lang="${locale}"><meta charset="utf-8"><title>429</title><p>${escapeHtml(text)}</p></html>`);
};
