import { createInstance } from "i18next";
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

type KeysOf<T, Prefix extends string = ""> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : KeysOf<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** The keys of bot.json (en-US is the reference every locale follows). */
export type BotTextKey = KeysOf<typeof enUS>;

/** A text by key, with its `{{name}}` placeholders filled. */
export type BotTexts = (key: BotTextKey, values?: Record<string, string | number>) => string;

type Template = Array<string | { name: string }>;

/** "{{rule}}: {{place}}" → ["", {name: "rule"}, ": ", {name: "place"}]; null if it holds other i18next syntax. */
function compileTemplate(text: string): Template | null {
  if (/\$t\(|\{\{[^}]*[,-][^}]*\}\}/.test(text)) return null;
  return text.split(/\{\{\s*(\w+)\s*\}\}/).map((part, index) => (index % 2 === 1 ? { name: part } : part));
}

const translators = new Map<string, BotTexts>();

function botI18next(locale: string) {
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
  return instance;
}

function fixedBotTexts(instance: ReturnType<typeof botI18next>, locale: string): BotTexts {
  const t = instance.getFixedT(locale, "bot");
  return (key, values) => String(t(key as never, values as never));
}

/** The bot's texts in one locale (a tag such as "de-DE") as i18next itself writes them. */
export function i18nextBotTexts(locale: string): BotTexts {
  return fixedBotTexts(botI18next(locale), locale);
}

/**
 * The bot's texts (locales/<locale>/bot.json) in one language; en-US for anything unknown.
 * The engine writes thousands of texts in one pass and i18next's `t` took ≈ 13 µs each, so
 * plain `{{name}}` templates are compiled once and filled directly. Plurals (`count`), and
 * anything a template leaves unfilled, go through i18next itself, which stays the reference.
 */
export function botTexts(language: string): BotTexts {
  const locale = LOCALE_OF[language] ?? "en-US";
  let texts = translators.get(locale);
  if (!texts) {
    const instance = botI18next(locale);
    const i18nextText = fixedBotTexts(instance, locale);
    const lookup = (from: string, key: string) => {
      const text: unknown = instance.getResource(from, "bot", key);
      return typeof text === "string" ? text : undefined;
    };
    const templates = new Map<string, Template | null>();
    texts = (key, values) => {
      if (values && "count" in values) return i18nextText(key, values);
      let template = templates.get(key);
      if (template === undefined) {
        const text = lookup(locale, key) ?? lookup("en-US", key);
        template = text === undefined ? null : compileTemplate(text);
        templates.set(key, template);
      }
      if (!template) return i18nextText(key, values);
      let result = "";
      for (const part of template) {
        if (typeof part === "string") result += part;
        else if (values && values[part.name] !== undefined) result += values[part.name];
        else return i18nextText(key, values);
      }
      return result;
    };
    translators.set(locale, texts);
  }
  return texts;
}
