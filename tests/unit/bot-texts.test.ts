import { describe, expect, it } from "vitest";
import enUS from "../../locales/en-US/bot.json";
import { botTexts, i18nextBotTexts, LOCALE_OF, type BotTextKey } from "~/api/bot/texts.server";

function keysOf(node: object, prefix = ""): string[] {
  return Object.entries(node).flatMap(([key, value]) =>
    typeof value === "string" ? [prefix + key] : keysOf(value as object, `${prefix}${key}.`),
  );
}

const VALUES = {
  place: "Office",
  from: "13:00",
  to: "17:00",
  rule: "Gusts",
  condition: "rain",
  probability: "80 %",
  period: "Today",
  peak: "68 km/h",
  peakAt: "15:00",
  name: "Morning",
  min: "3 °C",
  max: "9 °C",
  metric: "Gusts",
  gusts: "70 km/h",
};

describe("the bot's texts", () => {
  const keys = keysOf(enUS).filter((key) => !key.endsWith("_one")) as BotTextKey[];

  it.each(Object.keys(LOCALE_OF))("read in %s exactly as i18next writes them", (language) => {
    const t = botTexts(language);
    // i18next itself is the reference for what each text must read.
    const expected = i18nextBotTexts(LOCALE_OF[language]!);
    for (const key of keys) expect(t(key, VALUES), key).toBe(expected(key, VALUES));
    // A placeholder left without a value reads as i18next leaves it.
    expect(t("alert.title", { rule: "Gusts" })).toBe(expected("alert.title", { rule: "Gusts" }));
  });

  it("count picks the plural form", () => {
    const t = botTexts("EN_US");
    expect(t("push.digestTitle", { count: 1 })).toBe("1 message during quiet hours");
    expect(t("push.digestTitle", { count: 3 })).toBe("3 messages during quiet hours");
  });

  it("an unknown language reads in English", () => {
    expect(botTexts("XX_XX")("alert.title", { rule: "R", place: "P" })).toBe("R: P");
  });
});
