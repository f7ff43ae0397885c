import { parse, serialize } from "cookie";
import { isLocale, LOCALE_COOKIE, type Locale } from "../../lib/i18n/config";

/**
 * The locale cookie holds the plain locale tag ("de-DE"), not React Router's encoded
 * cookie format, so operators and other tools can read and set it.
 */
export function serializeLocaleCookie(locale: Locale): string {
  return serialize(LOCALE_COOKIE.name, locale, {
    maxAge: LOCALE_COOKIE.maxAgeSeconds,
    path: "/",
    sameSite: "lax",
  });
}

export function readLocaleCookie(cookieHeader: string | null): Locale | null {
  if (!cookieHeader) return null;
  const value = parse(cookieHeader)[LOCALE_COOKIE.name];
  return isLocale(value) ? value : null;
}
