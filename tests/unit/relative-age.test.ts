import { describe, expect, it } from "vitest";
import { formatRelativeAge } from "~/lib/relative-age";

describe("formatRelativeAge", () => {
  const now = Date.parse("2026-11-23T12:00:00Z");
  const ago = (ms: number) => now - ms;

  it("speaks minutes under an hour, hours under two days, days after", () => {
    expect(formatRelativeAge("en-US", ago(0), now)).toBe("this minute");
    expect(formatRelativeAge("en-US", ago(5 * 60_000), now)).toBe("5 minutes ago");
    expect(formatRelativeAge("en-US", ago(3 * 3_600_000), now)).toBe("3 hours ago");
    expect(formatRelativeAge("en-US", ago(3 * 86_400_000), now)).toBe("3 days ago");
    expect(formatRelativeAge("de-DE", ago(5 * 60_000), now)).toBe("vor 5 Minuten");
  });

  it("reads a time ahead of the clock as now", () => {
    expect(formatRelativeAge("en-US", now + 120_000, now)).toBe("this minute");
  });
});
