/**
 * Wall-clock time in IANA zones with nothing but Intl (Node 20 has no Temporal).
 * Every schedule in the bot is "HH:MM on these weekdays in the user's zone", which has
 * to land on the right instant on both daylight-saving edges.
 */

import type { Weekday } from "../../shared/schema-enums.generated";

export type ZonedParts = { date: string; time: string; weekday: Weekday; hour: number; minute: number };

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let existing = formatters.get(timeZone);
  if (!existing) {
    existing = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      weekday: "short",
    });
    formatters.set(timeZone, existing);
  }
  return existing;
}

// The engine asks about the same few hundred (zone, hour) pairs for thousands of rules.
const partsCache = new Map<string, ZonedParts>();
const PARTS_CACHE_LIMIT = 50_000;

/** The wall clock in `timeZone` at `instant`. */
export function zonedParts(instant: Date, timeZone: string): ZonedParts {
  const key = `${timeZone}|${instant.getTime()}`;
  const cached = partsCache.get(key);
  if (cached) return cached;
  const computed = computeZonedParts(instant, timeZone);
  if (partsCache.size >= PARTS_CACHE_LIMIT) partsCache.clear();
  partsCache.set(key, computed);
  return computed;
}

function computeZonedParts(instant: Date, timeZone: string): ZonedParts {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  const hour = Number(parts.hour);
  const minute = Number(parts.minute);
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    time: `${parts.hour}:${parts.minute}`,
    weekday: String(parts.weekday).slice(0, 3).toUpperCase() as Weekday,
    hour,
    minute,
  };
}

/** Offset of `timeZone` from UTC at `instant`, in milliseconds. */
export function zoneOffsetMs(instant: Date, timeZone: string): number {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  const asUtc = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

/**
 * The instant when the wall clock in `timeZone` shows `date` `time`. A time that does
 * not exist (skipped when clocks go forward) moves forward by the gap; a time that
 * happens twice (clocks go back) is its first occurrence.
 */
export function zonedToInstant(date: string, time: string, timeZone: string): Date {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const [hour, minute] = time.split(":").map(Number) as [number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  // Try the offsets in force a day either side; the earliest candidate that shows the
  // wanted wall time wins (first occurrence); if none does, the time was skipped.
  const offsets = [...new Set([zoneOffsetMs(new Date(wall - 86_400_000), timeZone), zoneOffsetMs(new Date(wall + 86_400_000), timeZone)])];
  const candidates = offsets
    .map((offset) => new Date(wall - offset))
    .filter((candidate) => zonedParts(candidate, timeZone).time === time && zonedParts(candidate, timeZone).date === date)
    .sort((a, b) => a.getTime() - b.getTime());
  if (candidates[0]) return candidates[0];
  // Skipped: the offset before the gap puts it after the gap by the gap's length.
  return new Date(wall - Math.min(...offsets));
}

/** `date` plus `days` calendar days. */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
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
