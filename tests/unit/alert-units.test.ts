import { describe, expect, it } from "vitest";
import { displayThreshold, formatThreshold, thresholdUnit } from "~/lib/alert-units";

const metric = { temperatureUnit: "CELSIUS", windSpeedUnit: "KMH", precipitationUnit: "MM" };
const imperial = { temperatureUnit: "FAHRENHEIT", windSpeedUnit: "MPH", precipitationUnit: "INCH" };

describe("alert thresholds in the user's units", () => {
  it("converts each metric to the API's metric value and back", () => {
    expect(thresholdUnit("TEMPERATURE", imperial).toMetric(86)).toBeCloseTo(30);
    expect(thresholdUnit("APPARENT_TEMPERATURE", imperial).label).toBe("°F");
    expect(thresholdUnit("WIND_GUSTS", imperial).toMetric(50)).toBeCloseTo(80.4672);
    expect(thresholdUnit("WIND_SPEED", { ...metric, windSpeedUnit: "KN" }).toMetric(10)).toBeCloseTo(18.52);
    expect(thresholdUnit("WIND_SPEED", { ...metric, windSpeedUnit: "MS" }).fromMetric(36)).toBeCloseTo(10);
    expect(thresholdUnit("PRECIPITATION", imperial).toMetric(1)).toBeCloseTo(25.4);
    expect(thresholdUnit("SNOWFALL", imperial).toMetric(2)).toBeCloseTo(5.08);
    expect(thresholdUnit("PRECIPITATION_PROBABILITY", imperial)).toMatchObject({ label: "%" });
    expect(thresholdUnit("TEMPERATURE", metric).toMetric(30)).toBe(30);
  });

  it("names AQI points by the reader's scale, in the caller's words", () => {
    const named = (scale: string) => `${scale} points`;
    expect(thresholdUnit("AQI", imperial, named)).toMatchObject({ label: "US points" });
    expect(thresholdUnit("AQI", metric, named).label).toBe("EUROPEAN points");
    expect(thresholdUnit("AQI", metric).toMetric(80)).toBe(80);
  });

  it("shows stored values rounded in the user's units", () => {
    expect(displayThreshold("TEMPERATURE", 30, imperial)).toBe(86);
    expect(displayThreshold("PRECIPITATION", 5, imperial)).toBe(0.2);
    expect(displayThreshold("WIND_GUSTS", 80.4672, imperial)).toBe(50);
  });

  it("writes a threshold or a peak as the reader's locale writes it: a percentage by Intl, numbers with its decimal sign", () => {
    expect(formatThreshold("PRECIPITATION_PROBABILITY", 90, { ...metric, locale: "en-US" })).toBe("90%");
    expect(formatThreshold("PRECIPITATION_PROBABILITY", 90, { ...metric, locale: "fr-FR" })).toBe("90\u00a0%");
    expect(formatThreshold("PRECIPITATION_PROBABILITY", 90, { ...metric, locale: "de-DE" })).toBe("90\u00a0%");
    expect(formatThreshold("PRECIPITATION", 2.5, { ...metric, locale: "de-DE" })).toBe("2,5 mm");
    expect(formatThreshold("WIND_GUSTS", 80.4672, { ...imperial, locale: "en-US" })).toBe("50 mph");
    expect(formatThreshold("AQI", 80, { ...metric, locale: "en-US" }, (scale) => `${scale} AQI`)).toBe("80 EUROPEAN AQI");
  });
});
