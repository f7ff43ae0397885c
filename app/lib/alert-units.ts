import type { TFunction } from "i18next";
import { airQualityScale } from "../shared/air-quality";
import type { AirQualityScale, AlertMetric } from "../shared/schema-enums.generated";
import { formatNumber, formatPercent, windUnit, type UnitSettings } from "../shared/units";

/** The reader's units; for an AQI rule also the scale its points are on (its own, decision 031; none: the reader's). */
type Units = Pick<UnitSettings, "temperatureUnit" | "windSpeedUnit" | "precipitationUnit"> & { aqiScale?: AirQualityScale | null };
type Conversion = { label: string; toMetric: (value: number) => number; fromMetric: (value: number) => number };

const identity = (label: string): Conversion => ({ label, toMetric: (value) => value, fromMetric: (value) => value });
const scale = (label: string, factor: number): Conversion => ({
  label,
  toMetric: (value) => value * factor,
  fromMetric: (value) => value / factor,
});

/** A scale's name in the reader's language ("US AQI", "Europäischer LQI"), for thresholdUnit's AQI points. */
export const aqiScaleLabel = (t: TFunction) => (scale: AirQualityScale) => t(`alerts.aqiScale.${scale}`);

/**
 * The API keeps thresholds metric (°C, mm, cm, km/h); people think in their own units.
 * The editor shows and takes values in the user's units and converts at the edge.
 */
export function thresholdUnit(metric: AlertMetric, units: Units, aqiLabel?: (scale: AirQualityScale) => string): Conversion {
  switch (metric) {
    case "TEMPERATURE":
    case "APPARENT_TEMPERATURE":
      return units.temperatureUnit === "FAHRENHEIT"
        ? { label: "°F", toMetric: (value) => ((value - 32) * 5) / 9, fromMetric: (value) => (value * 9) / 5 + 32 }
        : identity("°C");
    case "PRECIPITATION":
      return units.precipitationUnit === "INCH" ? scale("in", 25.4) : identity("mm");
    case "SNOWFALL":
      return units.precipitationUnit === "INCH" ? scale("in", 2.54) : identity("cm");
    case "WIND_SPEED":
    case "WIND_GUSTS": {
      const wind = windUnit(units);
      return scale(wind.label, wind.kmh);
    }
    case "PRECIPITATION_PROBABILITY":
      return identity("%");
    case "AQI":
      // Points on the rule's scale, named in the reader's language where the caller can ("US AQI", "Europäischer LQI").
      return identity(aqiLabel ? aqiLabel(units.aqiScale ?? airQualityScale(units)) : "AQI");
    default:
      return identity("");
  }
}

/** Rounded for display: whole units, or tenths for small amounts (rain in inches). */
export function displayThreshold(metric: AlertMetric, metricValue: number, units: Units): number {
  const value = thresholdUnit(metric, units).fromMetric(metricValue);
  return Math.abs(value) < 10 ? Math.round(value * 10) / 10 : Math.round(value);
}

/**
 * A threshold or a peak as a person reads it, in their units and number format: "90%" in en-US and "90 %" in
 * French, as Intl writes a percentage ("90 %" everywhere read wrong in English, issue 35), "12,5 mm" in German.
 */
export function formatThreshold(
  metric: AlertMetric,
  metricValue: number,
  units: Units & Pick<UnitSettings, "locale">,
  aqiLabel?: (scale: AirQualityScale) => string,
): string {
  const value = displayThreshold(metric, metricValue, units);
  if (metric === "PRECIPITATION_PROBABILITY") return formatPercent(value, units.locale);
  return `${formatNumber(value, units.locale, 1)} ${thresholdUnit(metric, units, aqiLabel).label}`.trim();
}
