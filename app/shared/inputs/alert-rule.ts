import * as z from "zod/mini";
import type { AlertMetric } from "../schema-enums.generated";
import { addIssue, nameText, wholeNumber } from "./issues";

/**
 * Plausible thresholds per metric (metric units: °C, mm, %, cm, km/h, UV index, AQI points; minutes
 * ahead for RAIN_SOON, within the 2 hours a nowcast sees well): anything outside is a typo, not a rule.
 */
export const THRESHOLD_RANGE: Readonly<Record<string, readonly [number, number]>> = {
  TEMPERATURE: [-90, 60],
  APPARENT_TEMPERATURE: [-90, 70],
  PRECIPITATION: [0, 500],
  PRECIPITATION_PROBABILITY: [0, 100],
  SNOWFALL: [0, 500],
  WIND_SPEED: [0, 400],
  WIND_GUSTS: [0, 400],
  UV_INDEX: [0, 20],
  RAIN_SOON: [15, 120],
  // Either scale's points: the US index ends at 500; the European one rarely passes 150.
  AQI: [0, 500],
} satisfies Record<Exclude<AlertMetric, "CONDITION">, readonly [number, number]>;
export const ALERT_RULE_NAME_MAX_LENGTH = 60;
export const LOOKAHEAD_HOURS = { min: 1, max: 72 } as const;
export const COOLDOWN_HOURS = { min: 0, max: 168 } as const;

/**
 * An alert rule as the API takes it (AlertRuleInput: thresholds metric, null where the
 * schema's defaults apply). The editor checks its draft with it before sending, the API
 * before saving or previewing. Enums and times are the GraphQL schema's to check.
 */
export const alertRuleInput = z
  .object({
    name: nameText(ALERT_RULE_NAME_MAX_LENGTH, "ALERT_RULE_NAME_REQUIRED"),
    enabled: z.nullish(z.boolean()),
    placeId: z.nullish(z.string()),
    metric: z.string(),
    comparator: z.nullish(z.string()),
    threshold: z.nullish(z.number()),
    conditions: z.nullish(z.array(z.string())),
    lookaheadHours: z.nullish(wholeNumber(LOOKAHEAD_HOURS.min, LOOKAHEAD_HOURS.max, "LOOKAHEAD_RANGE")),
    cooldownHours: z.nullish(wholeNumber(COOLDOWN_HOURS.min, COOLDOWN_HOURS.max, "COOLDOWN_RANGE")),
    activeDays: z.nullish(z.array(z.string()).check(z.minLength(1, "DAYS_REQUIRED"))),
    activeFrom: z.nullish(z.string()),
    activeTo: z.nullish(z.string()),
    urgent: z.nullish(z.boolean()),
    notifyAllClear: z.nullish(z.boolean()),
  })
  .check(
    z.superRefine((rule, context) => {
      if (rule.metric === "CONDITION") {
        if ((rule.conditions ?? []).length === 0) addIssue(context, "conditions", "CONDITIONS_REQUIRED");
      } else {
        const [min, max] = THRESHOLD_RANGE[rule.metric] ?? [0, 0];
        if (typeof rule.threshold !== "number" || !Number.isFinite(rule.threshold))
          addIssue(context, "threshold", "THRESHOLD_REQUIRED", { min, max });
        else if (rule.threshold < min || rule.threshold > max) addIssue(context, "threshold", "THRESHOLD_RANGE", { min, max });
      }
      // Said on the end that is missing: that is where the user has to type.
      if (Boolean(rule.activeFrom) !== Boolean(rule.activeTo))
        addIssue(context, rule.activeFrom ? "activeTo" : "activeFrom", "ACTIVE_HOURS_INCOMPLETE");
      else if (rule.activeFrom && rule.activeFrom === rule.activeTo) addIssue(context, "activeTo", "ACTIVE_HOURS_EMPTY");
    }),
  );

export type AlertRuleInput = z.input<typeof alertRuleInput>;
