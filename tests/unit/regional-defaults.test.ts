import { describe, expect, it } from "vitest";
import { matchLocale } from "~/lib/i18n/config";
import { browserRegion, regionalDefaults } from "~/shared/regional-defaults";

describe("matchLocale: Accept-Language → the app's locale of that language", () => {
  it.each([
    ["en-GB,en;q=0.9", "en-US"],
    ["en-AU", "en-US"],
    ["en", "en-US"],
    ["de-AT,fr-FR;q=0.8", "de-DE"],
    ["de-CH", "de-DE"],
    ["fr-CA,en;q=0.5", "fr-FR"],
    ["es-MX", "es-ES"],
    ["ja-JP,de;q=0.7,en;q=0.9", "en-US"],
    ["DE-de", "de-DE"],
  ])("%s → %s", (header, locale) => {
    expect(matchLocale(header)).toBe(locale);
  });

  it("has nothing for languages the app does not speak, or no header", () => {
    expect(matchLocale("ja-JP,zh;q=0.9")).toBeNull();
    expect(matchLocale("")).toBeNull();
    expect(matchLocale(null)).toBeNull();
    expect(matchLocale("*")).toBeNull();
  });
});

describe("browserRegion: the region of the browser's tag in the page's language", () => {
  it.each([
    ["en-GB,en;q=0.9", "en-US", "GB"],
    ["en,en-GB;q=0.9", "en-US", "GB"],
    ["en", "en-US", "US"],
    ["de-AT,fr-FR;q=0.8", "de-DE", "AT"],
    ["en-GB", "de-DE", "DE"],
    [null, "fr-FR", "FR"],
    ["es-419", "es-ES", "ES"],
    ["en-us", "en-US", "US"],
  ])("%s in %s → %s", (header, locale, region) => {
    expect(browserRegion(header, locale as never)).toBe(region);
  });
});

describe("regionalDefaults: units and clock of a region", () => {
  it("the UK: °C, mph, mm, 24-hour", () => {
    expect(regionalDefaults("GB")).toEqual({ hour12: false, temperatureUnit: "CELSIUS", windSpeedUnit: "MPH", precipitationUnit: "MM" });
  });
  it.each(["US", "LR", "MM"])("%s: °F, mph, inches", (region) => {
    expect(regionalDefaults(region)).toMatchObject({ temperatureUnit: "FAHRENHEIT", windSpeedUnit: "MPH", precipitationUnit: "INCH" });
  });
  it("the US keeps its 12-hour clock", () => {
    expect(regionalDefaults("US").hour12).toBe(true);
  });
  it.each(["DE", "FR", "ES", "AT", "AU", "CA", "IE"])("%s: metric", (region) => {
    expect(regionalDefaults(region)).toEqual({ hour12: false, temperatureUnit: "CELSIUS", windSpeedUnit: "KMH", precipitationUnit: "MM" });
  });
});
