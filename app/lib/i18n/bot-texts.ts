import type { i18n } from "i18next";
import { useEffect, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import type { MessageTexts } from "~/shared/message-wording";

type JsonModule = { default: Record<string, unknown> };

/** The bot's texts (locales/<locale>/bot.json), a chunk of their own per locale, fetched when the inbox first words a message. */
const files = import.meta.glob<JsonModule>("../../../locales/*/bot.json");

const listeners = new Set<() => void>();
const loading = new Map<string, Promise<void>>();

function load(instance: i18n, locale: string): Promise<void> {
  let pending = loading.get(locale);
  if (!pending) {
    const file = files[`../../../locales/${locale}/bot.json`];
    pending = (file ? file() : Promise.reject(new Error(`No bot texts for ${locale}`))).then(
      (module) => {
        instance.addResourceBundle(locale, "bot", module.default, true, true);
        for (const listener of listeners) listener();
      },
      // The messages keep the server's words (title and body) until a later try succeeds.
      (cause: unknown) => {
        loading.delete(locale);
        console.warn("Failed bot texts loading", { locale, cause });
      },
    );
    loading.set(locale, pending);
  }
  return pending;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/**
 * The bot's texts in the page's language once they are here, else null (then, and while
 * hydrating, a message shows the title and body the server worded, which say the same).
 */
export function useBotTexts(wanted: boolean): MessageTexts | null {
  const { i18n: instance } = useTranslation();
  const locale = instance.language;
  const ready = useSyncExternalStore(
    subscribe,
    () => instance.hasResourceBundle(locale, "bot"),
    () => false,
  );
  useEffect(() => {
    if (wanted && !instance.hasResourceBundle(locale, "bot")) void load(instance, locale);
  }, [wanted, instance, locale]);
  if (!ready) return null;
  const t = instance.getFixedT(locale, "bot");
  return (key, values) => String(t(key as never, values as never));
}
