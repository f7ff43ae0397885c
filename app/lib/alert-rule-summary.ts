import type { TFunction } from "i18next";
import type { AirQualityScale, AlertMetric, Comparator } from "~/shared/schema-enums.generated";
import { airQualityScale } from "~/shared/air-quality";
import { formatMinutes, formatNumber } from "~/shared/units";
import { aqiScaleLabel, formatThreshold } from "./alert-units";
import type { DisplaySettings } from "./display-settings";

/**
 * What a threshold rule watches, in the user's words and units: "Gusts at least 60 km/h", "Rain within 30 min", and
 * for air quality the rule's own scale in place of the metric ("US AQI at least 100"): it may not be the reader's now.
 */
export function thresholdSummary(
  rule: { metric: AlertMetric; comparator: Comparator; threshold: number | null; aqiScale?: AirQualityScale | null },
  t: TFunction,
  settings: DisplaySettings,
): string {
  if (rule.metric === "RAIN_SOON") return t("alerts.summaryRainSoon", { minutes: formatMinutes(rule.threshold ?? 0, settings.locale) });
  const comparator = t(`alerts.comparator.${rule.comparator}`);
  if (rule.metric === "AQI")
    return t("alerts.summary", {
      metric: aqiScaleLabel(t)(rule.aqiScale ?? airQualityScale(settings)),
      comparator,
      threshold: formatNumber(rule.threshold ?? 0, settings.locale),
    });
  return t("alerts.summary", {
    metric: t(`alerts.metric.${rule.metric}`),
    comparator,
    threshold: formatThreshold(rule.metric, rule.threshold ?? 0, settings),
  });
}
