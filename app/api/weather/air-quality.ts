import type { PollenKind } from "../../shared/schema-enums.generated";

/**
 * Air quality as the API keeps it (Open-Meteo's air-quality API, CAMS models): indices in their
 * own points, particles in µg/m³, pollen in grains/m³, times as UTC epoch seconds. A value the
 * provider has none of is null: pollen everywhere outside Europe, any value in a model gap.
 */
export type AirQualityNow = {
  time: number;
  europeanAqi: number | null;
  usAqi: number | null;
  pm2_5: number | null;
  pm10: number | null;
  /** Only the kinds the provider gave a number for. */
  pollen: Partial<Record<PollenKind, number>>;
};

/** The indices hour by hour, for the AQI alert. */
export type AirQualityHour = { time: number; europeanAqi: number | null; usAqi: number | null };

export type AirQuality = { current: AirQualityNow; hourly: AirQualityHour[] };

/** Open-Meteo's pollen variables, by this API's kind. */
export const POLLEN_VARIABLES: Readonly<Record<PollenKind, string>> = {
  ALDER: "alder_pollen",
  BIRCH: "birch_pollen",
  GRASS: "grass_pollen",
  MUGWORT: "mugwort_pollen",
  OLIVE: "olive_pollen",
  RAGWEED: "ragweed_pollen",
};

export const AIR_QUALITY_CURRENT = ["european_aqi", "us_aqi", "pm2_5", "pm10", ...Object.values(POLLEN_VARIABLES)] as const;
export const AIR_QUALITY_HOURLY = ["european_aqi", "us_aqi"] as const;
/** Days of hourly indices asked for: the longest look-ahead of a rule (72 h) from late in the day. */
export const AIR_QUALITY_DAYS = 5;

type Values = Record<string, number | null | undefined>;
/** Open-Meteo's answer for one coordinate (`timeformat=unixtime`); `*_units` name the units, which this app takes as documented. */
export type RawAirQuality = {
  current?: Values & { time: number };
  hourly?: Record<string, Array<number | null> | undefined> & { time: number[] };
};

const optional = (value: number | null | undefined) => (typeof value === "number" && Number.isFinite(value) ? value : null);

/** Open-Meteo's air-quality answer as kept here; null when it has neither current values nor hours. */
export function parseAirQuality(raw: RawAirQuality): AirQuality | null {
  const { current, hourly } = raw;
  if (!current || typeof current.time !== "number" || !Array.isArray(hourly?.time)) return null;
  const pollen: Partial<Record<PollenKind, number>> = {};
  for (const [kind, variable] of Object.entries(POLLEN_VARIABLES) as Array<[PollenKind, string]>) {
    const value = optional(current[variable]);
    if (value !== null) pollen[kind] = value;
  }
  return {
    current: {
      time: current.time,
      europeanAqi: optional(current.european_aqi),
      usAqi: optional(current.us_aqi),
      pm2_5: optional(current.pm2_5),
      pm10: optional(current.pm10),
      pollen,
    },
    hourly: hourly.time.map((time, i) => ({
      time,
      europeanAqi: optional(hourly.european_aqi?.[i]),
      usAqi: optional(hourly.us_aqi?.[i]),
    })),
  };
}

/** Pollen worth a word (a grain or more per m³), most first: what the card lists. */
export function pollenCounts(current: AirQualityNow): Array<{ kind: PollenKind; grains: number }> {
  return (Object.entries(current.pollen) as Array<[PollenKind, number]>)
    .filter(([, grains]) => grains >= 1)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, grains]) => ({ kind, grains }));
}
