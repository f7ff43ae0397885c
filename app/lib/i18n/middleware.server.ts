import { createInstance, type i18n } from "i18next";
import type { RouterContextProvider } from "react-router";
import { createI18nextMiddleware } from "remix-i18next/middleware";
import { DEFAULT_LOCALE, i18nextOptions, matchLocale, SUPPORTED_LOCALES, type Locale } from "./config";
import { readLocaleCookie } from "./locale-cookie.server";
import { allResources } from "./resources.server";

// Resolution order from the spec: the locale cookie, then Accept-Language, then en-US.
const [i18nextMiddleware, getLocaleFromContext, getInstanceFromContext] = createI18nextMiddleware({
  detection: {
    supportedLanguages: [...SUPPORTED_LOCALES],
    fallbackLanguage: DEFAULT_LOCALE,
    order: ["custom", "header"],
    // Any regional variant of a language the app speaks gets that language ("en-GB" → en-US).
    findLocale: async (request) => readLocaleCookie(request.headers.get("Cookie")) ?? matchLocale(request.headers.get("Accept-Language")),
  },
  i18next: { ...i18nextOptions, resources: allResources },
});

export { i18nextMiddleware };

export function getLocale(context: Readonly<RouterContextProvider>): Locale {
  return getLocaleFromContext(context) as Locale;
}

/**
 * The request's i18next instance. Requests that never ran the middleware (a document
 * that failed before any route matched) get a fresh default-locale instance instead
 * of a crash while rendering the error page.
 */
export function getI18n(context: Readonly<RouterContextProvider>): i18n {
  try {
    return getInstanceFromContext(context);
  } catch {
    return i18nFor(DEFAULT_LOCALE);
  }
}

/** A ready i18next instance for one locale (for texts outside the request's own locale). */
export function i18nFor(locale: Locale): i18n {
  const instance = createInstance({ ...i18nextOptions, lng: locale, resources: allResources, initAsync: false });
  void instance.init();
  return instance;
}
