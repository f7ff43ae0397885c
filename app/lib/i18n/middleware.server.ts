import { createInstance, type i18n } from "i18next";
import { createContext, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { RemixI18Next } from "remix-i18next/server";
import { DEFAULT_LOCALE, i18nextOptions, isLocale, matchLocale, SUPPORTED_LOCALES, type Locale } from "./config";
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
 * requests can share it, and a page saves building and initialising one (a few per cent
 * of a signed-in page's render).
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

type FixedT = ReturnType<i18n["getFixedT"]>;
type TOptions = { lng?: string; lngs?: readonly string[]; ns?: string | readonly string[]; keyPrefix?: string };

/** How many texts a lean fixed t keeps before it starts again (interpolated values make new ones without end). */
export const KEPT_TEXTS_MAX = 5_000;

/**
 * What identifies a call's text: its key and its options' values, when each is a string, number or boolean (the
 * texts are fixed for the process's life, so such a call always gives the same text); null for any other option.
 */
function textKey(key: string, options: Record<string, unknown> | undefined): string | null {
  if (options === undefined) return key;
  let id = key;
  for (const name in options) {
    const value = options[name];
    const type = typeof value;
    if (type === "string" || type === "number" || type === "boolean") id += `\0${name}\0${type[0]}${String(value)}`;
    else if (value !== undefined) return null;
  }
  return id;
}

/**
 * i18next's `getFixedT` for the call every component makes (a string key; an options object or none; no key prefix),
 * without what i18next's does per call for keys given as selector functions: a copy of all its options
 * (`{ ...this.options, ...o }`): a signed-in page's CPU went from 10.6 to 9.1 ms without it. Any other call is
 * i18next's own.
 *
 * It keeps the texts it gave (see textKey): a signed-in page asks for about 1,500, mostly the same labels card after
 * card, and i18next's translate (resolving, plurals, interpolation, nesting) was 8 % of its CPU.
 */
function leanFixedT(instance: i18n, lng: string, ns: string | readonly string[] | undefined, full: FixedT): FixedT {
  const texts = new Map<string, string>();
  const lean = (key: unknown, options?: unknown, ...rest: unknown[]) => {
    const plain =
      typeof key === "string" && rest.length === 0 && (options === undefined || (typeof options === "object" && options !== null));
    const o = options as TOptions | undefined;
    if (!plain || o?.keyPrefix !== undefined) return (full as unknown as (...args: unknown[]) => string)(key, options, ...rest);
    const kept = textKey(key, o as Record<string, unknown> | undefined);
    if (kept !== null) {
      const text = texts.get(kept);
      if (text !== undefined) return text;
    }
    // As i18next's fixed t: the call's own language and namespaces first, else the fixed ones.
    const text: unknown = instance.t(key, { ...o, lng: o?.lng || lng, lngs: o?.lngs, ns: o?.ns || ns } as never);
    if (kept !== null && typeof text === "string") {
      if (texts.size >= KEPT_TEXTS_MAX) texts.clear();
      texts.set(kept, text);
    }
    return text;
  };
  return Object.assign(lean, { lng, ns, keyPrefix: undefined }) as unknown as FixedT;
}

/** An instance whose `getFixedT` gives lean fixed t functions (see leanFixedT), kept per language, namespaces and scope. */
function withLeanFixedT(instance: i18n): i18n {
  const lean = Object.create(instance) as i18n;
  const kept = new Map<string, FixedT>();
  // react-i18next passes a fourth argument ({ scopeNs }) that i18next's types do not name.
  const getFixedT = (...args: unknown[]): FixedT => {
    const [lng, ns, keyPrefix, fixedOptions] = args as [unknown, unknown, unknown, { scopeNs?: unknown } | undefined];
    const full = () => (instance.getFixedT as unknown as (...all: unknown[]) => FixedT)(...args);
    if (typeof lng !== "string" || keyPrefix !== undefined || (ns !== undefined && typeof ns !== "string" && !Array.isArray(ns)))
      return full();
    const key = JSON.stringify([lng, ns ?? null, fixedOptions?.scopeNs ?? null]);
    let t = kept.get(key);
    if (!t) kept.set(key, (t = leanFixedT(instance, lng, ns as string | readonly string[] | undefined, full())));
    return t;
  };
  Object.defineProperty(lean, "getFixedT", { value: getFixedT });
  return lean;
}

const renderViews = new Map<Locale, { instance: i18n; view: i18n }>();

/**
 * What a server render's components read the locale's instance through: an object whose
 * prototype chain leads to the instance and that has no properties of its own. react-i18next copies
 * the own properties of the instance it is given once per component that translates (its
 * wrapper), dozens of times a page; through this view, that copy has nothing to copy. Its fixed t
 * functions are lean ones (see leanFixedT).
 */
export function i18nRenderView(instance: i18n): i18n {
  const locale = instance.language as Locale;
  let kept = renderViews.get(locale);
  if (!kept || kept.instance !== instance) {
    kept = { instance, view: Object.create(withLeanFixedT(instance)) as i18n };
    renderViews.set(locale, kept);
  }
  return kept.view;
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

/**
 * The request's fixed t for loaders and actions (a page's title, a field's error): the render's lean one (see
 * leanFixedT), which keeps the texts it gave. i18next's own `t` resolved each call again: the home page's two title
 * texts were 1 % of a signed-in page's CPU and more of a visitor's.
 */
export function requestT(context: Readonly<RouterContextProvider>): i18n["t"] {
  const instance = getI18n(context);
  return i18nRenderView(instance).getFixedT(instance.language) as unknown as i18n["t"];
}
