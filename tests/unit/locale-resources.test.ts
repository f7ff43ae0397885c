import { describe, expect, it } from "vitest";
import { NAMESPACES, SUPPORTED_LOCALES } from "~/lib/i18n/config";
import { importLocale } from "~/lib/i18n/resources";

describe("importLocale", () => {
  it("loads every namespace the app reads, in every locale, and nothing else (the bot's texts stay on the server)", async () => {
    for (const locale of SUPPORTED_LOCALES) {
      const resources = await importLocale(locale);
      expect(Object.keys(resources).sort()).toEqual([...NAMESPACES].sort());
    }
  });
});
