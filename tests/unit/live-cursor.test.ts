import { describe, expect, it } from "vitest";
import { timeOrderedId } from "~/api/db/ids.server";
import { advanceResumeCursor, timeOrderedLowerBound } from "~/shared/live-cursor";

describe("timeOrderedLowerBound", () => {
  it("sorts before every id made in or after its millisecond, and after those made before", () => {
    // Ahead of the clock: ids are monotonic per process, so earlier ones are made first.
    const ms = Date.UTC(2100, 0, 1);
    const bound = timeOrderedLowerBound(ms);
    expect(bound).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7000-8000-000000000000$/);
    expect(timeOrderedId(ms - 1) < bound).toBe(true);
    for (let i = 0; i < 20; i++) expect(timeOrderedId(ms + Math.floor(i / 4)) > bound).toBe(true);
  });
});

describe("advanceResumeCursor", () => {
  const payload = (after: string | null) => ({ variables: { after } as Record<string, unknown> });
  const result = (id: string) => ({ data: { messageReceived: { id } } });

  it("moves `after` to the newest item delivered", () => {
    const request = payload(null);
    advanceResumeCursor(request, result("0001"));
    expect(request.variables.after).toBe("0001");
    advanceResumeCursor(request, result("0003"));
    advanceResumeCursor(request, result("0002"));
    expect(request.variables.after).toBe("0003");
  });

  it("leaves operations without an `after` variable and results without an id alone", () => {
    const other = { variables: { first: 3 } as Record<string, unknown> };
    advanceResumeCursor(other, result("0001"));
    expect(other.variables).toEqual({ first: 3 });
    const request = payload("0001");
    advanceResumeCursor(request, { data: null });
    advanceResumeCursor(request, { data: { messageReceived: null } });
    expect(request.variables.after).toBe("0001");
  });
});
