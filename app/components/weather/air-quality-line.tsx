import type { TFunction } from "i18next";
import { aqiCategory, aqiOn, airQualityScale, type AirQualityCategory } from "~/shared/air-quality";
import type { DisplaySettings } from "~/lib/display-settings";
import type { WeatherFieldsFragment } from "~/lib/graphql/documents.generated";

export type AirQualityReport = NonNullable<WeatherFieldsFragment["airQuality"]>;

/** A dot of the band's colour beside its name (the name says it: the colour only helps to scan a page of cards). */
const BAND_COLOURS: Record<AirQualityCategory, string> = {
  GOOD: "bg-emerald-500",
  FAIR: "bg-lime-500",
  MODERATE: "bg-yellow-400",
  POOR: "bg-orange-500",
  UNHEALTHY_FOR_SENSITIVE_GROUPS: "bg-orange-500",
  VERY_POOR: "bg-red-600",
  UNHEALTHY: "bg-red-600",
  EXTREMELY_POOR: "bg-purple-700",
  VERY_UNHEALTHY: "bg-purple-700",
  HAZARDOUS: "bg-rose-900",
};

const numberFormat = (locale: string, digits: number) => new Intl.NumberFormat(locale, { maximumFractionDigits: digits });

/**
 * "Air quality: fair (European AQI 35) · PM2.5 8 µg/m³ · Pollen (grains/m³): grass 24, birch 3": the
 * index on the reader's scale (US AQI for °F readers, the European one elsewhere), then what is
 * known of particles and pollen. Loaded apart from the first paint's code (the card shows a
 * skeleton meanwhile when it renders in the browser).
 */
export default function AirQualityLine({ report, settings, t }: { report: AirQualityReport; settings: DisplaySettings; t: TFunction }) {
  const scale = airQualityScale(settings);
  const index = aqiOn(scale, report);
  const parts: string[] = [];
  const category = index === null ? null : aqiCategory(scale, index);
  if (category !== null) {
    parts.push(
      t("weather.airQuality.label", {
        category: t(`weather.airQuality.category.${category}`),
        scale: t(`weather.airQuality.scale.${scale}`),
        value: numberFormat(settings.locale, 0).format(index!),
      }),
    );
  }
  if (report.pm25 !== null) {
    parts.push(t("weather.airQuality.pm25", { value: numberFormat(settings.locale, report.pm25 < 10 ? 1 : 0).format(report.pm25) }));
  }
  if (report.pollen.length > 0) {
    const counts = report.pollen.map((count) =>
      t("weather.airQuality.pollenCount", {
        kind: t(`weather.airQuality.pollenKind.${count.kind}`),
        value: numberFormat(settings.locale, 0).format(count.grains),
      }),
    );
    parts.push(
      t("weather.airQuality.pollen", { list: new Intl.ListFormat(settings.locale, { style: "short", type: "unit" }).format(counts) }),
    );
  }
  if (parts.length === 0) return null;
  return (
    <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm" data-testid="air-quality">
      {parts.map((part, i) => (
        <span key={i} className="inline-flex items-center gap-1.5">
          {i === 0 && category !== null ? (
            <span className={`inline-block size-2.5 rounded-full ${BAND_COLOURS[category]}`} aria-hidden="true" />
          ) : null}
          {part}
        </span>
      ))}
    </p>
  );
}
