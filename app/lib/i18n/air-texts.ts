import type { i18n as I18n } from "i18next";

type JsonModule = { default: Record<string, unknown> };

/** The air-quality line's texts (locales/<locale>/air.json): a chunk of their own per locale, out of the first load. */
const files = import.meta.glob<JsonModule>("../../../locales/*/air.json");

const loads = new Map<string, Promise<void>>();

/**
 * The page's instance with the "air" texts of `locale` in it: at once where they are (the server
 * holds every locale's), else once their chunk is here (the same promise for every card, as
 * React's `use` wants). Not a namespace of the backend's: it would load it on every language change.
 */
export function airTextsLoaded(i18n: I18n, locale: string): Promise<void> | null {
  if (i18n.hasResourceBundle(locale, "air")) return null;
  let load = loads.get(locale);
  if (!load) {
    const file = files[`../../../locales/${locale}/air.json`] ?? files["../../../locales/en-US/air.json"]!;
    load = file().then(
      (module) => void i18n.addResourceBundle(locale, "air", module.default),
      (cause: unknown) => {
        // Tried again on the next render that needs them (a lazy chunk that fails reloads the page anyway).
        loads.delete(locale);
        throw cause;
      },
    );
    loads.set(locale, load);
  }
  return load;
}
