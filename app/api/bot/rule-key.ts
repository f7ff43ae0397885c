import type { AlertRuleTable } from "../db/tables";

type RuleFields = Pick<
  AlertRuleTable,
  "metric" | "comparator" | "threshold" | "conditions" | "lookahead_hours" | "active_days" | "active_from" | "active_to"
>;

/**
 * What a rule watches, as a key for its episodes: everything that decides which windows it
 * sees, nothing that only names or delivers them (name, urgency, all-clear, cooldown, place,
 * id). So a rule made again the same way, or renamed, knows what it already told, and a
 * changed rule (another threshold, other hours) starts afresh.
 */
export function ruleKey(rule: RuleFields): string {
  const watched = rule.metric === "CONDITION" ? (rule.conditions ?? "") : `${rule.comparator}${rule.threshold}`;
  return [rule.metric, watched, `${rule.lookahead_hours}h`, rule.active_days, rule.active_from ?? "", rule.active_to ?? ""].join("|");
}
