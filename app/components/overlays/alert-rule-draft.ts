import { displayThreshold, thresholdUnit } from "~/lib/alert-units";
import type { DisplaySettings } from "~/lib/display-settings";
import type { CompleteAlertRuleInput as AlertRuleInput } from "~/lib/graphql/documents";
import type { AlertRuleFieldsFragment } from "~/lib/graphql/documents.generated";
import { airQualityScale } from "~/shared/air-quality";
import { WEEKDAYS } from "~/shared/enum-values";
import type { InputIssue, InputIssueCode } from "~/shared/inputs/issues";

/** The rule editor's state: the input, with the threshold as typed (in the units the user sees). */
export type Draft = Omit<AlertRuleInput, "threshold"> & { threshold: string };

/** Where the form shows an issue. */
export type FormField = "name" | "threshold" | "conditions" | "activeDays" | "activeHours";

/** Where each part of the input is shown: both ends of the active hours under the pair. */
export const FIELDS: Record<string, FormField> = {
  name: "name",
  threshold: "threshold",
  conditions: "conditions",
  activeDays: "activeDays",
  activeFrom: "activeHours",
  activeTo: "activeHours",
};

/** What is only missing yet is said on saving; the preview says only what is wrong (a threshold out of range). */
export const SAID_ON_SAVE: ReadonlySet<InputIssueCode> = new Set([
  "ALERT_RULE_NAME_REQUIRED",
  "THRESHOLD_REQUIRED",
  "CONDITIONS_REQUIRED",
  "DAYS_REQUIRED",
  "ACTIVE_HOURS_INCOMPLETE",
]);

/** The draft a form starts from: the rule it edits, or a new rule's defaults (gusts of 60 km/h, every day). */
export function firstDraft(existing: AlertRuleFieldsFragment | undefined, settings: DisplaySettings): Draft {
  return existing
    ? {
        name: existing.name,
        // Kept while the name is the starter's (the API drops it once renamed).
        starter: existing.starter ?? null,
        enabled: existing.enabled,
        placeId: existing.place?.id ?? null,
        metric: existing.metric,
        comparator: existing.comparator,
        threshold: existing.threshold === null ? "" : String(displayThreshold(existing.metric, existing.threshold, settings)),
        aqiScale: existing.aqiScale,
        conditions: existing.conditions,
        lookaheadHours: existing.lookaheadHours,
        urgent: existing.urgent,
        notifyAllClear: existing.notifyAllClear,
        cooldownHours: existing.cooldownHours,
        activeDays: existing.activeDays,
        activeFrom: existing.activeFrom,
        activeTo: existing.activeTo,
      }
    : {
        name: "",
        starter: null,
        enabled: true,
        placeId: null,
        metric: "WIND_GUSTS",
        comparator: "AT_LEAST",
        threshold: String(displayThreshold("WIND_GUSTS", 60, settings)),
        aqiScale: null,
        conditions: ["THUNDERSTORM"],
        lookaheadHours: 24,
        urgent: false,
        notifyAllClear: false,
        cooldownHours: 6,
        activeDays: [...WEEKDAYS],
        activeFrom: null,
        activeTo: null,
      };
}

/**
 * The input the API takes: the threshold turned back into metric (null when it is not a number), none for weather
 * kinds; an AQI threshold on the rule's own scale, or for a rule new to AQI on the reader's (decision 031).
 */
export function toInput(draft: Draft, settings: DisplaySettings): AlertRuleInput {
  const isCondition = draft.metric === "CONDITION";
  const value = Number(draft.threshold.replace(",", "."));
  const typed = draft.threshold.trim() !== "" && Number.isFinite(value);
  return {
    ...draft,
    threshold: isCondition || !typed ? null : Math.round(thresholdUnit(draft.metric, settings).toMetric(value) * 100) / 100,
    conditions: isCondition ? draft.conditions : null,
    aqiScale: draft.metric === "AQI" ? (draft.aqiScale ?? airQualityScale(settings)) : null,
  };
}

/**
 * A threshold's range in the units the user sees it in (the schema's is metric), rounded
 * inwards as the field shows numbers (tenths below 10): every value it names is accepted.
 */
export function thresholdParams(input: AlertRuleInput, settings: DisplaySettings) {
  const unit = thresholdUnit(input.metric, settings);
  const inwards = (metric: number, round: (value: number) => number) => {
    const value = unit.fromMetric(metric);
    const step = Math.abs(value) < 10 ? 10 : 1;
    // Float noise (99.9999…) is the value itself.
    return round(Number((value * step).toFixed(6))) / step;
  };
  return (issue: InputIssue) =>
    issue.field === "threshold" && issue.params
      ? { min: inwards(Number(issue.params.min), Math.ceil), max: inwards(Number(issue.params.max), Math.floor) }
      : undefined;
}
