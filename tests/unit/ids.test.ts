import { describe, expect, it } from "vitest";
import { timeOrderedId } from "~/api/db/ids.server";

describe("timeOrderedId", () => {
  it("is a version-7 UUID", () => {
    expect(timeOrderedId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("sorts in creation order, also within one millisecond and when the clock steps back", () => {
    const ids = [
      ...Array.from({ length: 50 }, () => timeOrderedId(1_800_000_000_000)),
      timeOrderedId(1_799_999_999_000),
      timeOrderedId(1_800_000_000_001),
    ];
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
