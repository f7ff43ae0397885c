import { createInstance } from "i18next";
import deDE from "../../../locales/de-DE/mail.json";
import enUS from "../../../locales/en-US/mail.json";
import esES from "../../../locales/es-ES/mail.json";
import frFR from "../../../locales/fr-FR/mail.json";
import { LOCALE_OF } from "../bot/texts.server";

type KeysOf<T, Prefix extends string = ""> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : KeysOf<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** The keys of mail.json (en-US is the reference every locale follows). */
export type MailTextKey = KeysOf<typeof enUS>;
export type MailTexts = (key: MailTextKey, values?: Record<string, string>) => string;

const instance = createInstance({
  lng: "en-US",
  fallbackLng: "en-US",
  ns: ["mail"],
  defaultNS: "mail",
  resources: { "en-US": { mail: enUS }, "de-DE": { mail: deDE }, "fr-FR": { mail: frFR }, "es-ES": { mail: esES } },
  initAsync: false,
  // Mail is escaped where it becomes HTML (mail-layout.server.ts); the plain text keeps what people typed.
  interpolation: { escapeValue: false },
});
void instance.init();

/** The mail texts (locales/<locale>/mail.json) in the API's language (EN_US, DE_DE, …); en-US for anything unknown. */
export function mailTexts(language: string): MailTexts {
  const t = instance.getFixedT(LOCALE_OF[language] ?? "en-US", "mail" as never);
  return (key, values) => String(t(key as never, values as never));
}

/** The locale tag of the API's language (for the HTML's lang). */
export const mailLocale = (language: string) => LOCALE_OF[language] ?? "en-US";
