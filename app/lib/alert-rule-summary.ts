import type { TFunction } from "i18next";
import type { AlertMetric, Comparator } from "~/shared/schema-enums.generated";
import { formatMinutes } from "~/shared/units";
import { aqiScaleLabel, formatThreshold } from "./alert-units";
import type { DisplaySettings } from "./display-settings";

/** What a threshold rule watches, in the user's words and units: "Gusts at least 60 km/h", "Rain within 30 min". */
export function thresholdSummary(
  rule: { metric: AlertMetric; comparator: Comparator; threshold: number | null },
  t: TFunction,
  settings: DisplaySettings,
): string {
  if (rule.metric === "RAIN_SOON") return t("alerts.summaryRainSoon", { minutes: formatMinutes(rule.threshold ?? 0, settings.locale) });
  return t("alerts.summary", {
    metric: t(`alerts.metric.${rule.metric}`),
    comparator: t(`alerts.comparator.${rule.comparator}`),
    threshold: formatThreshold(rule.metric, rule.threshold ?? 0, settings, aqiScaleLabel(t)),
  });
}
