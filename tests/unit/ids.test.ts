import { describe, expect, it } from "vitest";
import { timeOrderedId, timeOrderedIdAfter } from "~/api/db/ids.server";

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

describe("timeOrderedIdAfter", () => {
  it("sorts after an id from another process, also one from the future or at the end of a millisecond's counter", () => {
    const future = timeOrderedId(Date.now() + 3_600_000);
    const next = timeOrderedIdAfter(future);
    expect(next > future).toBe(true);
    expect(next.slice(0, 13)).toBe(future.slice(0, 13)); // the same millisecond, the next counter value
    // A millisecond far ahead whose counter is used up: the next millisecond's first.
    const full = "ff900000-0000-7fff-8000-000000000000";
    const rolled = timeOrderedIdAfter(full);
    expect(rolled > full).toBe(true);
    expect(rolled).toMatch(/^ff900000-0001-7000-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const past = timeOrderedId(1_000);
    expect(timeOrderedIdAfter(past) > past).toBe(true);
    expect(timeOrderedIdAfter("")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
