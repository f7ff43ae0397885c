import { createInstance, type i18n } from "i18next";
import { createContext, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { RemixI18Next } from "remix-i18next/server";
import { DEFAULT_LOCALE, i18nextOptions, isLocale, matchLocale, SUPPORTED_LOCALES, type Locale } from "../../lib/i18n/config";
import { readLocaleCookie } from "./locale-cookie.server";
import { allResources } from "./resources.server";

// Resolution order (docs/product-constants.md): the locale cookie, then Accept-Language, then en-US.
const detector = new RemixI18Next({
  detection: {
    supportedLanguages: [...SUPPORTED_LOCALES],
    fallbackLanguage: DEFAULT_LOCALE,
    order: ["custom", "header"],
    // Any regional variant of a language the app speaks gets that language ("en-GB" → en-US).
    findLocale: async (request) => readLocaleCookie(request.headers.get("Cookie")) ?? matchLocale(request.headers.get("Accept-Language")),
  },
});

/*
 * One ready instance per locale for the whole process, not one per request: every text is
 * in memory from the start and nothing on the server changes an instance's language, so
 * requests can share it (react-i18next only reads it), and a page saves building and
 * initialising one. remix-i18next's createI18nextMiddleware builds and initialises one per
 * request, which measured 1.4–4 ms, as much as the rest of a signed-in page (decision 021).
 */
const instances = new Map<Locale, i18n>();

/** The ready i18next instance of a locale (also for texts outside the request's own locale). */
export function i18nFor(locale: Locale): i18n {
  let instance = instances.get(locale);
  if (!instance) {
    instance = createInstance({ ...i18nextOptions, lng: locale, resources: allResources, initAsync: false });
    void instance.init();
    instances.set(locale, instance);
  }
  return instance;
}

const localeContext = createContext<Locale>(DEFAULT_LOCALE);
const i18nContext = createContext<i18n | null>(null);

/** Named middleware `i18n`: the request's locale and its instance. */
export const i18nextMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const detected = await detector.getLocale(request);
  const locale = isLocale(detected) ? detected : DEFAULT_LOCALE;
  context.set(localeContext, locale);
  context.set(i18nContext, i18nFor(locale));
  return next();
};

export function getLocale(context: Readonly<RouterContextProvider>): Locale {
  return context.get(localeContext);
}

/**
 * The request's i18next instance. Requests that never ran the middleware (a document
 * that failed before any route matched) get the default locale's instead of a crash
 * while rendering the error page.
 */
export function getI18n(context: Readonly<RouterContextProvider>): i18n {
  return context.get(i18nContext) ?? i18nFor(DEFAULT_LOCALE);
}
