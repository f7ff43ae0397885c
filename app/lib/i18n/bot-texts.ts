import { createInstance } from "i18next";
import { useEffect, useSyncExternalStore } from "react";
import type { MessageTexts } from "~/shared/message-format";

type JsonModule = { default: Record<string, unknown> };

/** The bot's texts (locales/<locale>/bot.json), a chunk of their own per locale, fetched when the inbox first formats a message. */
const files = import.meta.glob<JsonModule>("../../../locales/*/bot.json");

const texts = new Map<string, MessageTexts>();
const loading = new Set<string>();
const listeners = new Set<() => void>();

/**
 * An i18next instance of their own per locale: added to the page's instance, "bot" would join the
 * namespaces its backend loads on every language change, which knows only the app's.
 */
async function load(locale: string): Promise<void> {
  if (texts.has(locale) || loading.has(locale)) return;
  const file = files[`../../../locales/${locale}/bot.json`];
  if (!file) return;
  loading.add(locale);
  try {
    const resources = (await file()).default;
    const instance = createInstance({
      lng: locale,
      fallbackLng: false,
      ns: ["bot"],
      defaultNS: "bot",
      resources: { [locale]: { bot: resources } },
      initAsync: false,
      interpolation: { escapeValue: false },
    });
    await instance.init();
    texts.set(locale, (key, values) => String(instance.t(key as never, values as never)));
    for (const listener of listeners) listener();
  } catch (cause) {
    // The messages keep the server's words (title and body); the next mount tries again.
    console.warn("Failed bot texts loading", { locale, cause });
  } finally {
    loading.delete(locale);
  }
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/**
 * The bot's texts in `locale` (the page's language) once they are here, else null (then, and while
 * hydrating, a message shows the title and body the server formatted, which say the same).
 */
export function useBotTexts(wanted: boolean, locale: string): MessageTexts | null {
  const loaded = useSyncExternalStore(
    subscribe,
    () => texts.get(locale) ?? null,
    () => null,
  );
  useEffect(() => {
    if (wanted) void load(locale);
  }, [wanted, locale]);
  return loaded;
}
