import { describe, expect, it } from "vitest";
import { dropIndex, rowShift, type RowBox } from "~/lib/drag-reorder";

describe("drag reorder geometry", () => {
  // Three rows of 60 px, the middle one taller.
  const rows: RowBox[] = [
    { id: "a", top: 0, height: 60 },
    { id: "b", top: 60, height: 80 },
    { id: "c", top: 140, height: 60 },
  ];

  it("drops a row past every middle it crossed", () => {
    expect(dropIndex(rows, "c", 0)).toBe(2);
    expect(dropIndex(rows, "c", -69)).toBe(2);
    expect(dropIndex(rows, "c", -71)).toBe(1);
    expect(dropIndex(rows, "c", -500)).toBe(0);
    expect(dropIndex(rows, "a", 500)).toBe(2);
    expect(dropIndex(rows, "x", 0)).toBe(-1);
  });

  it("slides the rows in between by the dragged row's height, the others not at all", () => {
    expect(rows.map((row) => rowShift(rows, "c", 0, row.id))).toEqual([60, 60, 0]);
    expect(rows.map((row) => rowShift(rows, "a", 1, row.id))).toEqual([0, -60, 0]);
    expect(rows.map((row) => rowShift(rows, "b", 1, row.id))).toEqual([0, 0, 0]);
  });
});
