import { use } from "react";
import type { i18n as I18n } from "i18next";
import { airTextsLoaded } from "~/lib/i18n/air-texts";
import { aqiCategory, aqiOn, airQualityScale } from "~/shared/air-quality";
import type { AirQualityScale } from "~/shared/schema-enums.generated";
import { formatNumber, formatShortList } from "~/shared/units";
import type { DisplaySettings } from "~/lib/display-settings";
import type { WeatherFieldsFragment } from "~/lib/graphql/documents.generated";

export type AirQualityReport = NonNullable<WeatherFieldsFragment["airQuality"]>;

/**
 * "Air quality: fair (European AQI 35) · PM2.5 8 µg/m³ · Pollen (grains/m³): grass 24, birch 3": the
 * index on the reader's scale (US AQI for °F readers, the European one elsewhere), then what is
 * known of particles and pollen. Its code and texts are out of the first load: the server renders
 * the line into the page, and the browser hydrates it once both are here (a card rendered in the
 * browser shows a skeleton meanwhile). `i18n` is the card's (its list's useTranslation).
 */
export default function AirQualityLine({ report, settings, i18n }: { report: AirQualityReport; settings: DisplaySettings; i18n: I18n }) {
  const locale = i18n.language;
  const loading = airTextsLoaded(i18n, locale);
  if (loading) use(loading);
  const scale = airQualityScale(settings);
  const line = lineOf(report, i18n, scale, settings.locale);
  if (line === null) return null;
  // One line of text: ten cards of it go into the page, which must stay light to send.
  return (
    <p className="text-sm" data-testid="air-quality">
      {line}
    </p>
  );
}

/** The line in the reader's language, scale and number format; null when nothing is known. */
function lineOf(report: AirQualityReport, i18n: I18n, scale: AirQualityScale, numberLocale: string): string | null {
  const t = i18n.getFixedT(i18n.language, "air");
  const index = aqiOn(scale, report);
  const parts: string[] = [];
  if (index !== null) {
    parts.push(
      t("label", {
        category: t(`category.${aqiCategory(scale, index)}`),
        scale: t(`scale.${scale}`),
        value: formatNumber(index, numberLocale),
      }),
    );
  }
  if (report.pm25 !== null) {
    parts.push(t("pm25", { value: formatNumber(report.pm25, numberLocale, report.pm25 < 10 ? 1 : 0) }));
  }
  if (report.pollen.length > 0) {
    const counts = report.pollen.map((count) =>
      t("pollenCount", { kind: t(`pollenKind.${count.kind}`), value: formatNumber(count.grains, numberLocale) }),
    );
    parts.push(t("pollen", { list: formatShortList(counts, numberLocale) }));
  }
  return parts.length === 0 ? null : parts.join(" · ");
}
