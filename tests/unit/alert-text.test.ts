import { describe, expect, it } from "vitest";
import { alertMessage } from "~/api/bot/alert-text.server";

const reader = {
  language: "EN_US",
  timeZone: "Europe/Berlin",
  hour12: false,
  temperatureUnit: "CELSIUS",
  windSpeedUnit: "KMH",
  precipitationUnit: "MM",
};
const rule = { name: "Gusts", metric: "WIND_GUSTS" as const };
// Wednesday 25 November 2026, 13:00 to 17:00 in Berlin (12:00 to 16:00 UTC), peak at 15:00.
const at = (isoUtc: string) => Date.parse(isoUtc) / 1000;
const match = { from: at("2026-11-25T12:00:00Z"), to: at("2026-11-25T16:00:00Z"), peakAt: at("2026-11-25T14:00:00Z"), peakValue: 68 };

describe("alert texts", () => {
  it("name the weekday of hours that are not today, in the reader's zone, asked for on different days", () => {
    const sameDay = alertMessage(rule, "Office", match, reader, new Date("2026-11-25T08:00:00Z"));
    const dayBefore = alertMessage(rule, "Office", match, reader, new Date("2026-11-24T08:00:00Z"));
    const sameDayAgain = alertMessage(rule, "Office", match, reader, new Date("2026-11-25T09:00:00Z"));
    expect(JSON.stringify(sameDay)).toContain("13:00");
    expect(JSON.stringify(sameDay)).not.toContain("Wed");
    expect(JSON.stringify(dayBefore)).toContain("Wed 13:00");
    expect(sameDayAgain).toEqual(sameDay);
  });
});
