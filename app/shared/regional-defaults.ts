import type { PrecipitationUnit, TemperatureUnit, WindSpeedUnit } from "./schema-enums.generated";

/** Units and clock a new reader starts with (a visitor's page, a new account's settings). */
export type RegionalDefaults = {
  hour12: boolean;
  temperatureUnit: TemperatureUnit;
  windSpeedUnit: Extract<WindSpeedUnit, "KMH" | "MPH">;
  precipitationUnit: PrecipitationUnit;
};

/** Where temperatures are in °F and rain in inches: the United States, Liberia and Myanmar. */
const IMPERIAL = new Set(["US", "LR", "MM"]);
/** Where wind is in mph while the rest is metric. */
const MPH = new Set(["GB"]);

export function regionalDefaults(region: string): RegionalDefaults {
  const imperial = IMPERIAL.has(region);
  return {
    hour12: region === "US",
    temperatureUnit: imperial ? "FAHRENHEIT" : "CELSIUS",
    windSpeedUnit: imperial || MPH.has(region) ? "MPH" : "KMH",
    precipitationUnit: imperial ? "INCH" : "MM",
  };
}

/** An Accept-Language header's tags, most wanted first ("*" and empty ones left out). */
export function acceptedLanguageTags(header: string | null | undefined): string[] {
  return (header ?? "")
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((param) => param.trim()).find((param) => param.startsWith("q="));
      const quality = q ? Number.parseFloat(q.slice(2)) : 1;
      return { tag: tag.trim(), quality: Number.isNaN(quality) ? 0 : quality, index };
    })
    .filter((entry) => entry.tag && entry.tag !== "*" && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
    .map((entry) => entry.tag);
}

/**
 * The region the reader is in, as far as the browser tells: from its first tag in the page's
 * language that names one ("en-GB" on the English page); else the locale's own region. A
 * German page in a British browser is DE: units follow the language the reader chose.
 */
export function browserRegion(acceptLanguage: string | null | undefined, locale: string): string {
  const [language, ownRegion] = locale.split("-") as [string, string];
  for (const tag of acceptedLanguageTags(acceptLanguage)) {
    const [tagLanguage, ...subtags] = tag.split("-");
    if (tagLanguage?.toLowerCase() !== language) continue;
    const region = subtags.find((subtag) => /^[A-Za-z]{2}$/.test(subtag));
    if (region) return region.toUpperCase();
  }
  return ownRegion;
}
