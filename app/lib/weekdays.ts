import { WEEKDAYS } from "../shared/enum-values";
import type { Weekday } from "../shared/schema-enums.generated";
import { formatShortList } from "../shared/units";

// 2024-01-01 was a Monday: the API's weekdays in order, named by Intl in any locale.
const MONDAY = Date.UTC(2024, 0, 1, 12);

export function weekdayName(day: Weekday, locale: string, width: "short" | "long" = "short"): string {
  const offset = WEEKDAYS.indexOf(day);
  return new Intl.DateTimeFormat(locale, { weekday: width, timeZone: "UTC" }).format(new Date(MONDAY + offset * 86_400_000));
}

/**
 * "Mon, Wed, Fri" (in the API's week order), for a compact schedule line; all seven are `everyDay`
 * ("Every day" in the reader's language): a list of seven names reads as a puzzle (issue 35).
 */
export function weekdayList(days: Weekday[], locale: string, everyDay: string): string {
  if (WEEKDAYS.every((day) => days.includes(day))) return everyDay;
  const ordered = WEEKDAYS.filter((day) => days.includes(day));
  return formatShortList(
    ordered.map((day) => weekdayName(day, locale)),
    locale,
  );
}
