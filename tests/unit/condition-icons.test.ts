import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { conditionSymbol } from "~/components/weather/condition-icon";
import { Condition } from "~/shared/schema-enums.generated";

const sprite = readFileSync(new URL("../../app/components/weather/condition-icons.svg", import.meta.url), "utf8");
const symbols = new Set([...sprite.matchAll(/<symbol id="([\w-]+)"/g)].map((match) => match[1]));

describe("the condition icons' sprite", () => {
  it("has a symbol for every condition, by day and by night", () => {
    for (const condition of Object.values(Condition))
      for (const isDay of [true, false]) expect(symbols, `${condition} ${isDay}`).toContain(conditionSymbol(condition, isDay));
  });

  it("shows day and night apart only where the sky shows", () => {
    expect(conditionSymbol("CLEAR", true)).not.toBe(conditionSymbol("CLEAR", false));
    expect(conditionSymbol("PARTLY_CLOUDY", true)).not.toBe(conditionSymbol("PARTLY_CLOUDY", false));
    expect(conditionSymbol("RAIN", true)).toBe(conditionSymbol("RAIN", false));
  });

  it("stays well-formed XML: no comment holds a double hyphen (a browser then draws none of it)", () => {
    for (const [, comment] of sprite.matchAll(/<!--([\s\S]*?)-->/g)) expect(comment).not.toContain("--");
  });
});
