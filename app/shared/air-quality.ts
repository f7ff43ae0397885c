import type { AirQualityScale } from "./schema-enums.generated";

/**
 * The scale of the reader's region, told by the units it gave them (regional-defaults.ts): the US
 * index where temperatures are in °F (the United States, and Liberia and Myanmar, which read
 * the US index too), the European index elsewhere. The card and the AQI alert use the same.
 */
export function airQualityScale(settings: { temperatureUnit: string }): AirQualityScale {
  return settings.temperatureUnit === "FAHRENHEIT" ? "US" : "EUROPEAN";
}

/** The index on a scale, from a report that has both (null where the provider has none). */
export const aqiOn = (scale: AirQualityScale, report: { europeanAqi: number | null; usAqi: number | null }) =>
  scale === "US" ? report.usAqi : report.europeanAqi;

export type AirQualityCategory =
  | "GOOD"
  | "FAIR"
  | "MODERATE"
  | "POOR"
  | "VERY_POOR"
  | "EXTREMELY_POOR"
  | "UNHEALTHY_FOR_SENSITIVE_GROUPS"
  | "UNHEALTHY"
  | "VERY_UNHEALTHY"
  | "HAZARDOUS";

/** Each scale's bands: the category up to and including its top value (the last has none). */
const BANDS: Record<AirQualityScale, ReadonlyArray<readonly [number, AirQualityCategory]>> = {
  // European Environment Agency: 0–20, 20–40, 40–60, 60–80, 80–100, over 100.
  EUROPEAN: [
    [20, "GOOD"],
    [40, "FAIR"],
    [60, "MODERATE"],
    [80, "POOR"],
    [100, "VERY_POOR"],
    [Infinity, "EXTREMELY_POOR"],
  ],
  // US EPA: 0–50, 51–100, 101–150, 151–200, 201–300, over 300.
  US: [
    [50, "GOOD"],
    [100, "MODERATE"],
    [150, "UNHEALTHY_FOR_SENSITIVE_GROUPS"],
    [200, "UNHEALTHY"],
    [300, "VERY_UNHEALTHY"],
    [Infinity, "HAZARDOUS"],
  ],
};

/** The band an index value falls in on its scale. */
export function aqiCategory(scale: AirQualityScale, value: number): AirQualityCategory {
  return BANDS[scale].find(([top]) => value <= top)![1];
}
