import "i18next";
import type air from "../../../locales/en-US/air.json";
import type bot from "../../../locales/en-US/bot.json";
import type common from "../../../locales/en-US/common.json";
import type warnings from "../../../locales/en-US/warnings.json";

// Typed keys: `t("no.such.key")` fails `tsc`. "bot" holds the API's message texts, "air" the air-quality line's,
// "warnings" the official warnings' on a place's card.
declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "common";
    resources: { common: typeof common; bot: typeof bot; air: typeof air; warnings: typeof warnings };
  }
}
