import { describe, expect, it } from "vitest";
import { headlineTone } from "~/components/weather/current-header";
import { intensityOf, weatherHeadline } from "~/shared/weather-headline";

const NOW = Date.parse("2026-11-24T10:07:00Z");
const at = (quarter: number) => new Date(Date.parse("2026-11-24T10:00:00Z") + quarter * 900_000).toISOString();
/** Quarter hours from 10:00 with these precipitations (mm). */
const steps = (...mm: number[]) => mm.map((precipitation, i) => ({ time: at(i), precipitation }));
const rain = { condition: "RAIN", temperature: 8 } as const;
const cloudy = { condition: "OVERCAST", temperature: 8 } as const;

describe("weatherHeadline", () => {
  it("never says it rains now when the nowcast says rain starts later (issue 35: 'Rain' beside 'Rain starting in about 5 min')", () => {
    expect(weatherHeadline(rain, steps(0, 0.4, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6), NOW)).toEqual({
      kind: "startsAt",
      at: at(1),
      fall: "rain",
      conditionWet: true,
    });
    expect(weatherHeadline(cloudy, steps(0, 0, 0.4, 0, 0, 0, 0, 0), NOW)).toMatchObject({
      kind: "startsAt",
      at: at(2),
      conditionWet: false,
    });
  });

  it("says it is dry for now when a wet hour's nowcast sees nothing", () => {
    expect(weatherHeadline(rain, steps(0, 0, 0, 0, 0, 0, 0, 0), NOW)).toEqual({ kind: "dryNow" });
    expect(weatherHeadline(cloudy, steps(0, 0, 0, 0, 0, 0, 0, 0), NOW)).toEqual({ kind: "condition" });
  });

  it("says rain falls now even under a dry condition, and until when", () => {
    expect(weatherHeadline(cloudy, steps(0.3, 0.3, 0, 0, 0, 0, 0, 0), NOW)).toEqual({
      kind: "until",
      at: at(2),
      word: { kind: "fall", fall: "rain", intensity: "light" },
    });
  });

  it("says when light rain gets heavier ('Light rain, heavier from 14:20') or eases", () => {
    expect(weatherHeadline(rain, steps(0.3, 0.3, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5), NOW)).toEqual({
      kind: "changesAt",
      at: at(2),
      word: { kind: "fall", fall: "rain", intensity: "light" },
      change: "heavier",
    });
    expect(weatherHeadline(rain, steps(1, 1, 1, 0.3, 0.3, 0.3, 0.3, 0.3), NOW)).toMatchObject({
      kind: "changesAt",
      change: "lighter",
      at: at(3),
    });
    expect(weatherHeadline(rain, steps(1, 1, 1, 1, 1, 1, 1, 1), NOW)).toEqual({
      kind: "throughout",
      word: { kind: "fall", fall: "rain", intensity: "moderate" },
    });
  });

  it("names snow at freezing and a thunderstorm by its condition", () => {
    expect(weatherHeadline({ condition: "OVERCAST", temperature: -2 }, steps(0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3), NOW)).toEqual({
      kind: "throughout",
      word: { kind: "fall", fall: "snow", intensity: "light" },
    });
    expect(weatherHeadline({ condition: "THUNDERSTORM", temperature: 20 }, steps(3, 3, 0.3, 0, 0, 0, 0, 0), NOW)).toEqual({
      kind: "until",
      at: at(3),
      word: { kind: "condition" },
    });
  });

  it("reads the quarter hour now running, not one already over, and keeps the condition without a nowcast", () => {
    const later = Date.parse("2026-11-24T10:20:00Z");
    expect(weatherHeadline(cloudy, steps(0.5, 0, 0, 0, 0, 0, 0, 0), later)).toEqual({ kind: "condition" });
    expect(weatherHeadline(rain, [], NOW)).toEqual({ kind: "condition" });
  });
});

describe("intensityOf", () => {
  it("uses 2.5 and 7.6 mm an hour as the steps between light, moderate and heavy", () => {
    expect([0.1, 0.62, 0.63, 1.89, 1.9].map(intensityOf)).toEqual(["light", "light", "moderate", "moderate", "heavy"]);
  });
});

describe("headlineTone", () => {
  it("paints what the sentence says, not the hour's code", () => {
    expect(headlineTone({ kind: "dryNow" }, "RAIN", true)).toBe("cloud");
    expect(headlineTone({ kind: "startsAt", at: at(1), fall: "rain", conditionWet: true }, "RAIN", true)).toBe("cloud");
    expect(headlineTone({ kind: "until", at: at(1), word: { kind: "fall", fall: "rain", intensity: "light" } }, "OVERCAST", true)).toBe(
      "rain",
    );
    expect(headlineTone({ kind: "throughout", word: { kind: "condition" } }, "THUNDERSTORM", true)).toBe("storm");
    expect(headlineTone({ kind: "condition" }, "CLEAR", true)).toBe("sun");
    expect(headlineTone({ kind: "condition" }, "CLEAR", false)).toBe("night");
    expect(headlineTone({ kind: "condition" }, "FOG", true)).toBe("cloud");
  });
});
