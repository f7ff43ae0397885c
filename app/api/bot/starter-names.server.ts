import deDE from "../../../locales/de-DE/common.json";
import enUS from "../../../locales/en-US/common.json";
import esES from "../../../locales/es-ES/common.json";
import frFR from "../../../locales/fr-FR/common.json";
import type { AlertRuleTable } from "../db/tables";
import { STARTER_NAME_KEYS } from "../../shared/starter-rules";
import type { StarterRule } from "../../shared/schema-enums.generated";
import { LOCALE_OF } from "./texts.server";

/** The starter rules' names as the app's starter list shows them, per locale. */
const NAMES: Record<string, Record<string, string>> = {
  "en-US": enUS.starterRules.names,
  "de-DE": deDE.starterRules.names,
  "fr-FR": frFR.starterRules.names,
  "es-ES": esES.starterRules.names,
};

/** A starter rule's name in a language (the API's enum: EN_US...), null for a key this build does not know. */
export function starterRuleName(starter: string, language: string): string | null {
  const key = STARTER_NAME_KEYS[starter as StarterRule];
  if (!key) return null;
  return NAMES[LOCALE_OF[language] ?? "en-US"]?.[key] ?? NAMES["en-US"]![key] ?? null;
}

/** A rule's name for a reader: a starter rule's in their language, any other as its owner wrote it. */
export function ruleName(rule: Pick<AlertRuleTable, "name" | "starter_key">, language: string): string {
  return (rule.starter_key && starterRuleName(rule.starter_key, language)) || rule.name;
}

/** Whether `name` is the starter's in any language: a rule saved under it keeps following the reader's. */
export function isStarterName(starter: string, name: string): boolean {
  return Object.keys(LOCALE_OF).some((language) => starterRuleName(starter, language) === name);
}
