import { formatClock } from "../shared/units";

/** The times a time field offers: every quarter hour ("06:45"), enough for a briefing or quiet hours. */
export const CLOCK_STEP_MINUTES = 15;

const pad = (value: number) => String(value).padStart(2, "0");

/**
 * Each "HH:MM" of the day in CLOCK_STEP_MINUTES steps, and `current` among them where it is off that step (a time
 * saved before, or through the API), in order.
 */
export function clockTimes(current: string | null): string[] {
  const times: string[] = [];
  for (let minutes = 0; minutes < 24 * 60; minutes += CLOCK_STEP_MINUTES)
    times.push(`${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`);
  if (current && /^\d{2}:\d{2}$/.test(current) && !times.includes(current)) times.push(current);
  return times.sort();
}

/** "22:00" as the reader's clock writes it: "10:00 PM" on a 12-hour clock, "22:00" on a 24-hour one. */
export function clockTimeText(time: string, locale: string, hour12: boolean): string {
  const [hours, minutes] = time.split(":").map(Number);
  // A wall-clock time of no day: written in UTC, where no daylight-saving change moves it.
  return formatClock(new Date(Date.UTC(2024, 0, 1, hours ?? 0, minutes ?? 0)), locale, "UTC", hour12);
}
