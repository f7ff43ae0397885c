import type { CompleteAlertRuleInput as AlertRuleInput } from "./graphql/documents";
import { WEEKDAYS } from "../shared/enum-values";
import type { StarterRule } from "../shared/schema-enums.generated";
import { STARTER_NAME_KEYS } from "../shared/starter-rules";

/** Rules most people want, offered while a user has none. Thresholds are metric, like the API's. */
export const STARTER_RULES = [
  { key: "gusts", checked: true, rule: { metric: "WIND_GUSTS", comparator: "AT_LEAST", threshold: 60, conditions: null, urgent: false } },
  {
    key: "thunderstorm",
    checked: true,
    rule: {
      metric: "CONDITION",
      comparator: "AT_LEAST",
      threshold: null,
      conditions: ["THUNDERSTORM", "THUNDERSTORM_WITH_HAIL"],
      urgent: true,
    },
  },
  {
    key: "heavyRain",
    checked: false,
    rule: { metric: "PRECIPITATION", comparator: "AT_LEAST", threshold: 5, conditions: null, urgent: false },
  },
  { key: "frost", checked: false, rule: { metric: "TEMPERATURE", comparator: "AT_MOST", threshold: 0, conditions: null, urgent: false } },
  { key: "heat", checked: false, rule: { metric: "TEMPERATURE", comparator: "AT_LEAST", threshold: 30, conditions: null, urgent: false } },
] as const satisfies ReadonlyArray<{
  key: string;
  checked: boolean;
  rule: Pick<AlertRuleInput, "metric" | "comparator" | "threshold" | "conditions" | "urgent">;
}>;

export type StarterRuleKey = (typeof STARTER_RULES)[number]["key"];

/** The API's name for each: a rule made from one keeps the starter's name in the reader's language until renamed. */
const STARTER_OF = Object.fromEntries(Object.entries(STARTER_NAME_KEYS).map(([starter, key]) => [key, starter as StarterRule])) as Record<
  StarterRuleKey,
  StarterRule
>;

/** The full input for one starter rule, named in the user's language. */
export function starterRuleInput(key: StarterRuleKey, name: string): AlertRuleInput {
  const starter = STARTER_RULES.find((entry) => entry.key === key)!;
  return {
    name,
    starter: STARTER_OF[key],
    enabled: true,
    placeId: null,
    ...starter.rule,
    conditions: starter.rule.conditions ? [...starter.rule.conditions] : null,
    aqiScale: null,
    lookaheadHours: 24,
    notifyAllClear: false,
    cooldownHours: 6,
    activeDays: [...WEEKDAYS],
    activeFrom: null,
    activeTo: null,
  };
}
