import type { i18n as I18n } from "i18next";

export type JsonModule = { default: Record<string, unknown> };

/**
 * A namespace whose texts are a chunk of their own per locale, out of the first load (`files`: its
 * `import.meta.glob` of locales/<locale>/<namespace>.json; vite.config.ts names the chunks). What it gives is
 * the page's instance with the texts of `locale` in it: at once where they are (the server holds every
 * locale's), else once their chunk is here (the same promise for every caller, as React's `use` wants). Not a
 * namespace of the backend's: it would load it on every language change.
 */
export function lazyTexts(namespace: string, files: Record<string, () => Promise<JsonModule>>) {
  const loads = new Map<string, Promise<void>>();
  const fileOf = (locale: string) =>
    Object.entries(files).find(([path]) => path.endsWith(`/${locale}/${namespace}.json`))?.[1] ??
    Object.entries(files).find(([path]) => path.endsWith(`/en-US/${namespace}.json`))![1];
  return (i18n: I18n, locale: string): Promise<void> | null => {
    if (i18n.hasResourceBundle(locale, namespace)) return null;
    let load = loads.get(locale);
    if (!load) {
      load = fileOf(locale)().then(
        (module) => void i18n.addResourceBundle(locale, namespace, module.default),
        (cause: unknown) => {
          // Tried again on the next render that needs them (a lazy chunk that fails reloads the page anyway).
          loads.delete(locale);
          throw cause;
        },
      );
      loads.set(locale, load);
    }
    return load;
  };
}
