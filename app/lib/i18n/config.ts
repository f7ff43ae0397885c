import type { InitOptions } from "i18next";
import { acceptedLanguageTags } from "../../shared/regional-defaults";
import type { Language } from "../../shared/schema-enums.generated";

export const SUPPORTED_LOCALES = ["en-US", "de-DE", "fr-FR", "es-ES"] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];

export const DEFAULT_LOCALE: Locale = "en-US";
export const NAMESPACES = ["common"] as const;
export type Namespace = (typeof NAMESPACES)[number];

/** The cookie that remembers the chosen locale (name and lifetime: docs/product-constants.md). */
export const LOCALE_COOKIE = {
  name: "i18n_redirected",
  maxAgeSeconds: 365 * 24 * 60 * 60,
} as const;

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (SUPPORTED_LOCALES as readonly string[]).includes(value);
}

/**
 * The app's locale for an Accept-Language header: the first tag whose language the app
 * speaks, whatever its region ("en-GB" → en-US, "de-AT" → de-DE, even before a "fr-FR"
 * the browser ranks lower). Null when it speaks none of them.
 */
export function matchLocale(acceptLanguage: string | null | undefined): Locale | null {
  for (const tag of acceptedLanguageTags(acceptLanguage)) {
    const language = tag.split("-")[0]!.toLowerCase();
    const locale = SUPPORTED_LOCALES.find((candidate) => candidate.startsWith(`${language}-`));
    if (locale) return locale;
  }
  return null;
}

/** Options shared by the server's per-request instance and the browser's instance. */
export const i18nextOptions = {
  supportedLngs: [...SUPPORTED_LOCALES],
  fallbackLng: DEFAULT_LOCALE,
  // Only the exact locale: "de-DE" must not also try to load "de".
  load: "currentOnly",
  defaultNS: "common",
  ns: [...NAMESPACES],
  interpolation: { escapeValue: false },
  returnNull: false,
} satisfies InitOptions;

const directions = new Map<string, string>();

/**
 * "ltr" or "rtl" for a locale, as i18next's `dir` says, asked once per locale: `dir` builds an `Intl.Locale` on every
 * call, and the page's `<html>` asks on every render.
 */
export function textDirection(i18n: { dir(locale: string): string }, locale: string): string {
  let direction = directions.get(locale);
  if (direction === undefined) directions.set(locale, (direction = i18n.dir(locale)));
  return direction;
}

/** The locale's own name for itself ("Deutsch (Deutschland)"), from Intl rather than a word list. */
export function localeDisplayName(locale: Locale): string {
  const name = new Intl.DisplayNames([locale], { type: "language" }).of(locale) ?? locale;
  return name.charAt(0).toLocaleUpperCase(locale) + name.slice(1);
}

/** The API's `Language` enum for each locale: the language the bot writes a user's messages in. */
export function apiLanguage(locale: Locale): Language {
  return locale.replace("-", "_").toUpperCase() as Language;
}

/** The locale of an API `Language` value ("DE_DE" → "de-DE"); null for one the app does not speak. */
export function localeOfApiLanguage(language: unknown): Locale | null {
  return SUPPORTED_LOCALES.find((locale) => apiLanguage(locale) === language) ?? null;
}
