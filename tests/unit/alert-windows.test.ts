import { describe, expect, it } from "vitest";
import { fewestWindows } from "~/api/bot/alert-text.server";
import { scalarResolvers } from "~/api/schema/scalars.server";
import { windowBounds } from "~/shared/message-content";

const H = 3600;

describe("an alert's windows", () => {
  it("are told in time order, and as fewer, longer ones where there are more than an alert lists: the shortest calms first", () => {
    const windows = [
      { from: 10 * H, to: 11 * H },
      { from: 0, to: 2 * H },
      { from: 3 * H, to: 4 * H }, // one calm hour after the first
      { from: 20 * H, to: 22 * H },
    ];
    expect(fewestWindows(windows, 4)).toEqual([
      { from: 0, to: 2 * H },
      { from: 3 * H, to: 4 * H },
      { from: 10 * H, to: 11 * H },
      { from: 20 * H, to: 22 * H },
    ]);
    expect(fewestWindows(windows, 3)).toEqual([
      { from: 0, to: 4 * H },
      { from: 10 * H, to: 11 * H },
      { from: 20 * H, to: 22 * H },
    ]);
    expect(fewestWindows(windows, 1)).toEqual([{ from: 0, to: 22 * H }]);
  });

  it("travel as ISO-8601 intervals, which the API checks", () => {
    const interval = "2026-06-01T12:00:00.000Z/2026-06-01T15:00:00.000Z";
    expect(windowBounds(interval)).toEqual({ from: new Date("2026-06-01T12:00:00.000Z"), to: new Date("2026-06-01T15:00:00.000Z") });
    expect(scalarResolvers.TimeInterval.parseValue(interval)).toBe(interval);
    for (const bad of ["2026-06-01T12:00:00.000Z", "2026-06-01T15:00:00.000Z/2026-06-01T12:00:00.000Z", "a/b", `${interval}/x`]) {
      expect(() => scalarResolvers.TimeInterval.parseValue(bad), bad).toThrow(/TimeInterval must be two ISO-8601 date-times/);
    }
  });
});
