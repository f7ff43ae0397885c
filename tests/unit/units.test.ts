import { afterEach, describe, expect, it, vi } from "vitest";
import {
  formatDegrees,
  formatNumber,
  formatPercent,
  formatTemperature,
  formatPressure as pressure,
  formatRegionName,
  compassPoint,
  formatClock,
  formatDuration,
  formatPressure,
  formatVisibility,
  formatWeekdayClock,
  cachedInstantText,
  MAX_CACHED_INSTANT_TEXTS,
  MAX_CACHED_NUMBER_TEXTS,
} from "~/shared/units";

// Tuesday 24 November 2026, 18:05 UTC and 00:04 UTC.
const evening = new Date(Date.UTC(2026, 10, 24, 18, 5));
const afterMidnight = new Date(Date.UTC(2026, 10, 24, 0, 4));

describe("clock times", () => {
  it("write a 12-hour clock without a leading zero and a 24-hour clock with one, in the given zone", () => {
    expect(formatClock(evening, "en-US", "UTC", true)).toBe("6:05 PM");
    expect(formatClock(evening, "en-US", "UTC", false)).toBe("18:05");
    expect(formatClock(afterMidnight, "en-US", "UTC", false)).toBe("00:04");
    expect(formatClock(evening, "en-US", "Asia/Tokyo", false)).toBe("03:05");
    expect(formatClock(evening, "de-DE", "Europe/Berlin", false)).toBe("19:05");
  });

  it("put the weekday before the time, in the reader's language and zone", () => {
    expect(formatWeekdayClock(evening, "en-US", "UTC", true)).toBe("Tue 6:05 PM");
    expect(formatWeekdayClock(evening, "en-US", "Asia/Tokyo", false)).toBe("Wed 03:05");
    expect(formatWeekdayClock(afterMidnight, "en-US", "UTC", false)).toBe("Tue 00:04");
  });

  it("write the same 24-hour time with a weekday as without, in every language", () => {
    for (const locale of ["en-US", "de-DE", "fr-FR", "es-ES"]) {
      expect(formatWeekdayClock(afterMidnight, locale, "UTC", false), locale).toContain(formatClock(afterMidnight, locale, "UTC", false));
    }
    expect(formatClock(afterMidnight, "es-ES", "UTC", false)).toBe("00:04");
  });
});

describe("more of the sky", () => {
  const metric = { locale: "de-DE", temperatureUnit: "CELSIUS", windSpeedUnit: "KMH", precipitationUnit: "MILLIMETER" };
  const us = { locale: "en-US", temperatureUnit: "FAHRENHEIT", windSpeedUnit: "MPH", precipitationUnit: "INCH" };

  it("writes pressure in hPa, or inHg where rain is in inches", () => {
    expect(formatPressure(1013.2, metric)).toBe("1.013 hPa");
    expect(formatPressure(1013.2, us)).toBe("29.92 inHg");
    // A round figure keeps both decimals, as barometers write it (1009.1 hPa is 29.7988… inHg).
    expect(formatPressure(1009.1, us)).toBe("29.80 inHg");
  });

  it("writes visibility in km (m under one), or in miles where wind is in mph", () => {
    expect(formatVisibility(24_140, metric)).toBe("24 km");
    expect(formatVisibility(8_000, metric)).toBe("8 km");
    expect(formatVisibility(2_500, metric)).toBe("2,5 km");
    expect(formatVisibility(400, metric)).toBe("400 m");
    expect(formatVisibility(24_140, us)).toBe("15 mi");
    expect(formatVisibility(8_000, us)).toBe("5 mi");
  });

  it("names the compass point a wind comes from", () => {
    expect([0, 22, 23, 90, 180, 225, 315, 338, 359, -45].map(compassPoint)).toEqual(["N", "N", "NE", "E", "S", "SW", "NW", "N", "N", "NW"]);
  });

  it("writes a day's length of daylight in the reader's language", () => {
    expect(formatDuration(9 * 3600 + 13 * 60, "en-US")).toBe("9 hr 13 min");
    expect(formatDuration(10 * 3600, "en-US")).toBe("10 hr");
    expect(formatDuration(9 * 3600 + 13 * 60, "de-DE")).toBe("9 Std. 13 Min.");
  });
});

describe("texts cached by instant", () => {
  it("format an instant once per format, tell apart formats and zones, and hold at most MAX_CACHED_INSTANT_TEXTS", () => {
    let computed = 0;
    const format = (instant: Date) => `${++computed}:${instant.toISOString()}`;
    const first = cachedInstantText("test|a", evening, format);
    expect(cachedInstantText("test|a", new Date(evening.getTime()), format)).toBe(first);
    expect(computed).toBe(1);
    expect(cachedInstantText("test|b", evening, format)).not.toBe(first);
    expect(computed).toBe(2);
    // Enough other texts to fill it: the first is then formatted afresh, so the cache stays bounded.
    for (let hour = 1; hour <= MAX_CACHED_INSTANT_TEXTS; hour++)
      cachedInstantText("test|fill", new Date(evening.getTime() + hour * 3_600_000), format);
    const before = computed;
    cachedInstantText("test|a", evening, format);
    expect(computed).toBe(before + 1);
  });
});

describe("figures cached by value", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("write a value once per locale and decimals, tell them apart, and hold at most MAX_CACHED_NUMBER_TEXTS per format", () => {
    // Intl's format is a getter handing out a bound function (typed as a method): each figure written asks for it once.
    const formats = vi.spyOn(Intl.NumberFormat.prototype as unknown as { format: unknown }, "format", "get");
    expect(formatNumber(2.345, "de-DE", 1)).toBe("2,3");
    expect(formatNumber(2.345, "de-DE", 1)).toBe("2,3");
    expect(formats).toHaveBeenCalledTimes(1);
    expect(formatNumber(2.345, "en-US", 1)).toBe("2.3");
    expect(formatNumber(2.345, "de-DE", 2)).toBe("2,35");
    expect(formatNumber(2.345, "de-DE")).toBe("2");
    // Exactly two decimals is another format than at most two.
    expect(pressure(1012.5, { locale: "en-US", temperatureUnit: "CELSIUS", windSpeedUnit: "KMH", precipitationUnit: "INCH" })).toBe(
      "29.90 inHg",
    );
    expect(formatNumber(1012.5 * 0.02953, "en-US", 2)).toBe("29.9");
    expect(formats).toHaveBeenCalledTimes(6);
    // Enough other figures to fill its format: the first is then written afresh, so the cache stays bounded.
    for (let value = 1; value <= MAX_CACHED_NUMBER_TEXTS; value++) formatNumber(value + 0.5, "de-DE", 1);
    const before = formats.mock.calls.length;
    expect(formatNumber(2.345, "de-DE", 1)).toBe("2,3");
    expect(formats).toHaveBeenCalledTimes(before + 1);
  });

  it("write a percentage once per locale and value", () => {
    const formats = vi.spyOn(Intl.NumberFormat.prototype as unknown as { format: unknown }, "format", "get");
    expect(formatPercent(35, "fr-FR")).toBe("35\u00a0%");
    expect(formatPercent(35, "fr-FR")).toBe("35\u00a0%");
    expect(formats).toHaveBeenCalledTimes(1);
    expect([formatPercent(35, "en-US"), formatPercent(7, "fr-FR"), formatPercent(35, "de-DE")]).toEqual(["35%", "7\u00a0%", "35\u00a0%"]);
    expect(formats).toHaveBeenCalledTimes(4);
  });
});

describe("values that round to zero", () => {
  const celsius = { locale: "en-US", temperatureUnit: "CELSIUS", windSpeedUnit: "KMH", precipitationUnit: "MM" };

  it('are written "0", never "-0", in every format and locale (issue 35)', () => {
    expect(formatDegrees(-0.4, celsius)).toBe("0°");
    expect(formatDegrees(-0, celsius)).toBe("0°");
    expect(formatTemperature(-0.3, celsius)).toBe("0 °C");
    // -17.9 °C is -0.2 °F.
    expect(formatDegrees(-17.9, { ...celsius, temperatureUnit: "FAHRENHEIT" })).toBe("0°");
    for (const locale of ["en-US", "de-DE", "fr-FR", "es-ES"]) {
      expect(formatDegrees(-0.49, { ...celsius, locale }), locale).toBe("0°");
      expect(formatNumber(-0.04, locale, 1), locale).toBe("0");
    }
    // Below zero once rounded, the sign stays.
    expect(formatDegrees(-0.5, celsius)).toBe("-1°");
    expect(formatNumber(-0.25, "de-DE", 1)).toBe("-0,3");
  });
});

describe("country names", () => {
  it("name a country in the reader's language, each language apart", () => {
    expect(formatRegionName("CH", "de-DE")).toBe("Schweiz");
    expect(formatRegionName("CH", "fr-FR")).toBe("Suisse");
    expect(formatRegionName("CH", "en-US")).toBe("Switzerland");
    expect(formatRegionName("CH", "de-DE")).toBe("Schweiz");
  });
});
