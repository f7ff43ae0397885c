import "i18next";
import type common from "../../../locales/en-US/common.json";

// Typed keys: `t("no.such.key")` fails `tsc`.
declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "common";
    resources: { common: typeof common };
  }
}
