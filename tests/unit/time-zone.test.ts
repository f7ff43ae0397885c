import { describe, expect, it } from "vitest";
import { canonicalTimeZone } from "~/shared/time-zone";

describe("canonicalTimeZone", () => {
  it("gives the IANA name of a zone written in any case", () => {
    expect(canonicalTimeZone("europe/berlin")).toBe("Europe/Berlin");
    expect(canonicalTimeZone("ASIA/TOKYO")).toBe("Asia/Tokyo");
    expect(canonicalTimeZone(" utc ")).toBe("UTC");
    expect(canonicalTimeZone("Europe/Berlin")).toBe("Europe/Berlin");
  });

  it("resolves older links the runtime knows, and refuses what is no zone", () => {
    expect(canonicalTimeZone("US/Pacific")).toBe("America/Los_Angeles");
    expect(canonicalTimeZone("Mars/Olympus")).toBeNull();
    expect(canonicalTimeZone("")).toBeNull();
    expect(canonicalTimeZone("Europe/Berlin\u0000")).toBeNull();
  });
});
