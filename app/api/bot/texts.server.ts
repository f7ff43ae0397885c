import { createInstance, type TFunction } from "i18next";
import deDE from "../../../locales/de-DE/bot.json";
import enUS from "../../../locales/en-US/bot.json";
import esES from "../../../locales/es-ES/bot.json";
import frFR from "../../../locales/fr-FR/bot.json";

/** The API's language enum and the app's locale tags. */
export const LOCALE_OF: Record<string, string> = { EN_US: "en-US", DE_DE: "de-DE", FR_FR: "fr-FR", ES_ES: "es-ES" };

const resources = {
  "en-US": { bot: enUS },
  "de-DE": { bot: deDE },
  "fr-FR": { bot: frFR },
  "es-ES": { bot: esES },
};

const translators = new Map<string, TFunction<"bot">>();

/** The bot's texts (locales/<locale>/bot.json) in one language; en-US for anything unknown. */
export function botTexts(language: string): TFunction<"bot"> {
  const locale = LOCALE_OF[language] ?? "en-US";
  let t = translators.get(locale);
  if (!t) {
    const instance = createInstance({
      lng: locale,
      fallbackLng: "en-US",
      ns: ["bot"],
      defaultNS: "bot",
      resources,
      initAsync: false,
      interpolation: { escapeValue: false },
    });
    void instance.init();
    t = instance.getFixedT(locale, "bot");
    translators.set(locale, t);
  }
  return t;
}
