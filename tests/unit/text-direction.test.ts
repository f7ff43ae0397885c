import { createInstance } from "i18next";
import { describe, expect, it, vi } from "vitest";
import { SUPPORTED_LOCALES, textDirection } from "~/lib/i18n/config";

describe("a page's text direction", () => {
  it("is i18next's for the locale, asked once per locale", () => {
    const i18n = createInstance();
    const dir = vi.spyOn(i18n, "dir");
    for (const locale of [...SUPPORTED_LOCALES, "ar-EG", "he-IL"]) {
      const expected = locale === "ar-EG" || locale === "he-IL" ? "rtl" : "ltr";
      expect(textDirection(i18n, locale)).toBe(expected);
      expect(textDirection(i18n, locale)).toBe(expected);
    }
    expect(dir).toHaveBeenCalledTimes(SUPPORTED_LOCALES.length + 2);
  });
});
