import type { BackendModule } from "i18next";
import { DEFAULT_LOCALE, isLocale, type Locale } from "./config";
import { importLocale, type LocaleResources } from "./resources";

export type LocaleImporter = (locale: Locale) => Promise<LocaleResources>;

export type LoadedLocale = {
  /** The locale whose texts were loaded: the requested one, or en-US after a failure. */
  locale: Locale;
  resources: LocaleResources;
};

/**
 * Loads a locale's texts in the browser. A locale that fails to load (a chunk that
 * cannot be fetched, a broken file) is logged as "Failed locale loading" and the
 * default locale is used instead, so the page still has words on it.
 */
export async function loadLocale(requested: string, importer: LocaleImporter = importLocale): Promise<LoadedLocale> {
  const locale = isLocale(requested) ? requested : DEFAULT_LOCALE;
  try {
    return { locale, resources: await importer(locale) };
  } catch (cause) {
    console.error("Failed locale loading", { locale, cause });
    if (locale === DEFAULT_LOCALE) throw cause;
    return { locale: DEFAULT_LOCALE, resources: await importer(DEFAULT_LOCALE) };
  }
}

/** An i18next backend over loadLocale, for language changes after the first paint. */
export function createLocaleBackend(importer: LocaleImporter = importLocale): BackendModule {
  return {
    type: "backend",
    init() {},
    read(language, namespace, callback) {
      loadLocale(language, importer).then(
        ({ resources }) => callback(null, resources[namespace as keyof LocaleResources] ?? {}),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
      );
    },
  };
}
