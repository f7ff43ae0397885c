import { describe, expect, it } from "vitest";
import { addDays, nextOccurrence, zonedParts, zonedToInstant } from "~/api/bot/zoned-time";
import { WEEKDAYS } from "~/shared/enum-values";

describe("zoned time", () => {
  it("reads the wall clock in a zone", () => {
    expect(zonedParts(new Date("2026-11-22T06:00:00Z"), "Europe/Berlin")).toMatchObject({
      date: "2026-11-22",
      time: "07:00",
      weekday: "SUN",
    });
    expect(zonedParts(new Date("2026-11-22T06:00:00Z"), "America/New_York").time).toBe("01:00");
  });

  it("maps 07:00 local to the right instant in winter and summer", () => {
    expect(zonedToInstant("2026-01-15", "07:00", "Europe/Berlin").toISOString()).toBe("2026-01-15T06:00:00.000Z");
    expect(zonedToInstant("2026-07-15", "07:00", "Europe/Berlin").toISOString()).toBe("2026-07-15T05:00:00.000Z");
    expect(zonedToInstant("2026-07-15", "07:00", "Australia/Sydney").toISOString()).toBe("2026-07-14T21:00:00.000Z");
  });

  it("gets both DST transition days right (Europe/Berlin 2026: 29 March and 25 October)", () => {
    expect(zonedToInstant("2026-03-28", "07:00", "Europe/Berlin").toISOString()).toBe("2026-03-28T06:00:00.000Z");
    expect(zonedToInstant("2026-03-29", "07:00", "Europe/Berlin").toISOString()).toBe("2026-03-29T05:00:00.000Z");
    expect(zonedToInstant("2026-10-25", "07:00", "Europe/Berlin").toISOString()).toBe("2026-10-25T06:00:00.000Z");
    expect(zonedToInstant("2026-10-24", "07:00", "Europe/Berlin").toISOString()).toBe("2026-10-24T05:00:00.000Z");
  });

  it("moves a skipped time forward and takes the first of a repeated one", () => {
    // 02:30 does not exist on 29 March in Berlin: 03:30 CEST.
    expect(zonedToInstant("2026-03-29", "02:30", "Europe/Berlin").toISOString()).toBe("2026-03-29T01:30:00.000Z");
    // 02:30 happens twice on 25 October: the first is 02:30 CEST = 00:30 UTC.
    expect(zonedToInstant("2026-10-25", "02:30", "Europe/Berlin").toISOString()).toBe("2026-10-25T00:30:00.000Z");
  });

  it("finds the next 07:00 on chosen weekdays, across a DST change", () => {
    const friday = new Date("2026-03-27T12:00:00Z");
    expect(nextOccurrence(friday, "07:00", ["SUN"], "Europe/Berlin")!.toISOString()).toBe("2026-03-29T05:00:00.000Z");
    expect(nextOccurrence(friday, "07:00", ["MON", "TUE", "WED", "THU", "FRI"], "Europe/Berlin")!.toISOString()).toBe(
      "2026-03-30T05:00:00.000Z",
    );
    // Exactly at the due instant, the next one is a day later.
    const due = new Date("2026-10-25T06:00:00Z");
    expect(nextOccurrence(due, "07:00", WEEKDAYS, "Europe/Berlin")!.toISOString()).toBe("2026-10-26T06:00:00.000Z");
    expect(nextOccurrence(due, "07:00", [], "Europe/Berlin")).toBeNull();
  });

  it("adds calendar days across month ends", () => {
    expect(addDays("2026-02-27", 2)).toBe("2026-03-01");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
  });
});
