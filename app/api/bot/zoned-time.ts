/**
 * Wall-clock time in IANA zones, by Temporal (a polyfill: Node 20 has no Temporal yet).
 * Every schedule in the bot is "HH:MM on these weekdays in the user's zone", which has
 * to land on the right instant on both daylight-saving edges.
 */

import { LRUCache } from "lru-cache";
import { Temporal } from "temporal-polyfill";
import type { Weekday } from "../../shared/schema-enums.generated";

export type ZonedParts = { date: string; time: string; weekday: Weekday; hour: number; minute: number };

// The engine asks about the same few hundred (zone, hour) pairs for thousands of rules.
const partsCache = new LRUCache<string, ZonedParts>({ max: 50_000 });

/** Temporal's `dayOfWeek` is 1 (Monday) to 7 (ISO 8601), whatever order the schema's enum has. */
const ISO_WEEKDAYS: readonly Weekday[] = ["MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"];

/** The wall clock in `timeZone` at `instant`. */
export function zonedParts(instant: Date, timeZone: string): ZonedParts {
  const key = `${timeZone}|${instant.getTime()}`;
  const cached = partsCache.get(key);
  if (cached) return cached;
  const wall = Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(timeZone);
  const computed: ZonedParts = {
    date: wall.toPlainDate().toString(),
    time: wall.toPlainTime().toString({ smallestUnit: "minute" }),
    weekday: ISO_WEEKDAYS[wall.dayOfWeek - 1]!,
    hour: wall.hour,
    minute: wall.minute,
  };
  partsCache.set(key, computed);
  return computed;
}

/**
 * The instant when the wall clock in `timeZone` shows `date` `time`. A time that does
 * not exist (skipped when clocks go forward) moves forward by the gap; a time that
 * happens twice (clocks go back) is its first occurrence: Temporal's "compatible"
 * disambiguation, the one RFC 5545 calendars use.
 */
export function zonedToInstant(date: string, time: string, timeZone: string): Date {
  const wall = Temporal.PlainDateTime.from(`${date}T${time}`).toZonedDateTime(timeZone, { disambiguation: "compatible" });
  return new Date(wall.epochMilliseconds);
}

/** `date` plus `days` calendar days. */
export function addDays(date: string, days: number): string {
  return Temporal.PlainDate.from(date).add({ days }).toString();
}

/**
 * The first instant strictly after `after` when the clock in `timeZone` shows `time` on
 * one of `days`.
 */
export function nextOccurrence(after: Date, time: string, days: readonly Weekday[], timeZone: string): Date | null {
  if (days.length === 0) return null;
  const today = zonedParts(after, timeZone).date;
  for (let offset = 0; offset <= 8; offset++) {
    const date = addDays(today, offset);
    const candidate = zonedToInstant(date, time, timeZone);
    if (candidate.getTime() <= after.getTime()) continue;
    if (days.includes(zonedParts(candidate, timeZone).weekday)) return candidate;
  }
  return null;
}
