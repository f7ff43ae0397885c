import { NAMESPACES, type Locale, type Namespace } from "./config";

export type LocaleResources = Record<Namespace, Record<string, unknown>>;
type JsonModule = { default: Record<string, unknown> };

/**
 * Lazy: each locale's files are a chunk of their own, fetched only when that language is shown. Only the
 * app's namespaces (NAMESPACES): the bot's message texts are the server's, and would ride along in every chunk.
 */
const lazyFiles = import.meta.glob<JsonModule>("../../../locales/*/common.json");

function fileKey(path: string): { locale: string; namespace: string } {
  const [, locale = "", file = ""] = /locales\/([^/]+)\/([^/]+)\.json$/.exec(path) ?? [];
  return { locale, namespace: file };
}

/** Loads every namespace of one locale. Rejects if any file fails to load. */
export async function importLocale(locale: Locale): Promise<LocaleResources> {
  // Only the app's namespaces: other files (the bot's message texts) are server-side.
  const entries = Object.entries(lazyFiles).filter(([path]) => {
    const { locale: fileLocale, namespace } = fileKey(path);
    return fileLocale === locale && (NAMESPACES as readonly string[]).includes(namespace);
  });
  if (entries.length === 0) throw new Error(`No translation files for ${locale}`);
  const loaded = await Promise.all(entries.map(async ([path, load]) => [fileKey(path).namespace, (await load()).default] as const));
  return Object.fromEntries(loaded) as LocaleResources;
}
