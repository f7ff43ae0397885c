import { describe, expect, it } from "vitest";
import { formatClock, formatWeekdayClock } from "~/shared/units";

// Tuesday 24 November 2026, 18:05 UTC and 00:04 UTC.
const evening = new Date(Date.UTC(2026, 10, 24, 18, 5));
const afterMidnight = new Date(Date.UTC(2026, 10, 24, 0, 4));

describe("clock times", () => {
  it("write a 12-hour clock without a leading zero and a 24-hour clock with one, in the given zone", () => {
    expect(formatClock(evening, "en-US", "UTC", true)).toBe("6:05 PM");
    expect(formatClock(evening, "en-US", "UTC", false)).toBe("18:05");
    expect(formatClock(afterMidnight, "en-US", "UTC", false)).toBe("00:04");
    expect(formatClock(evening, "en-US", "Asia/Tokyo", false)).toBe("03:05");
    expect(formatClock(evening, "de-DE", "Europe/Berlin", false)).toBe("19:05");
  });

  it("put the weekday before the time, in the reader's language and zone", () => {
    expect(formatWeekdayClock(evening, "en-US", "UTC", true)).toBe("Tue 6:05 PM");
    expect(formatWeekdayClock(evening, "en-US", "Asia/Tokyo", false)).toBe("Wed 03:05");
    expect(formatWeekdayClock(afterMidnight, "en-US", "UTC", false)).toBe("Tue 00:04");
  });

  it("write the same 24-hour time with a weekday as without, in every language", () => {
    for (const locale of ["en-US", "de-DE", "fr-FR", "es-ES"]) {
      expect(formatWeekdayClock(afterMidnight, locale, "UTC", false), locale).toContain(formatClock(afterMidnight, locale, "UTC", false));
    }
    expect(formatClock(afterMidnight, "es-ES", "UTC", false)).toBe("00:04");
  });
});
