import "i18next";
import type bot from "../../../locales/en-US/bot.json";
import type common from "../../../locales/en-US/common.json";

// Typed keys: `t("no.such.key")` fails `tsc`. "bot" holds the API's message texts.
declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "common";
    resources: { common: typeof common; bot: typeof bot };
  }
}
