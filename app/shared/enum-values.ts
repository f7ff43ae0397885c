import { AlertMetric, BriefingChannel, BriefingPeriod, Condition, Weekday } from "./schema-enums.generated";

// Each list is its enum's values in the order app/api/schema/*.graphql gives them: the order the UI shows.
export const WEEKDAYS: readonly Weekday[] = Object.values(Weekday);
export const BRIEFING_PERIODS: readonly BriefingPeriod[] = Object.values(BriefingPeriod);
export const BRIEFING_CHANNELS: readonly BriefingChannel[] = Object.values(BriefingChannel);
export const ALERT_METRICS: readonly AlertMetric[] = Object.values(AlertMetric);
export const CONDITIONS: readonly Condition[] = Object.values(Condition);
