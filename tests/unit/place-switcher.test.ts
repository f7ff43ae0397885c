import { describe, expect, it } from "vitest";
import { turningPoints } from "~/components/weather/chart-turns";
import { neighbourId, openPlaceId, placeHref } from "~/lib/open-place";
import { swipeDirection, SWIPE_MIN_PX } from "~/lib/swipe";

const IDS = ["a", "b", "c"];

describe("openPlaceId", () => {
  it("opens the place the address names, else the first", () => {
    expect(openPlaceId(IDS, new URLSearchParams("place=b"))).toBe("b");
    expect(openPlaceId(IDS, new URLSearchParams(""))).toBe("a");
    // A place removed meanwhile (or someone else's id) opens the first rather than nothing.
    expect(openPlaceId(IDS, new URLSearchParams("place=gone"))).toBe("a");
    expect(openPlaceId([], new URLSearchParams("place=b"))).toBeNull();
  });

  it("round-trips through the address it writes", () => {
    expect(openPlaceId(IDS, new URL(placeHref("c"), "http://x").searchParams)).toBe("c");
  });
});

describe("neighbourId", () => {
  it("steps through the user's order without wrapping around", () => {
    expect(neighbourId(IDS, "a", 1)).toBe("b");
    expect(neighbourId(IDS, "b", -1)).toBe("a");
    expect(neighbourId(IDS, "c", 1)).toBeNull();
    expect(neighbourId(IDS, "a", -1)).toBeNull();
    expect(neighbourId(IDS, "x", 1)).toBeNull();
  });
});

describe("swipeDirection", () => {
  it("counts a long, mostly sideways move as a swipe", () => {
    expect(swipeDirection(-SWIPE_MIN_PX, 5)).toBe(-1);
    expect(swipeDirection(120, -30)).toBe(1);
  });

  it("leaves short moves and vertical scrolls alone", () => {
    expect(swipeDirection(SWIPE_MIN_PX - 1, 0)).toBe(0);
    expect(swipeDirection(-80, 70)).toBe(0);
    expect(swipeDirection(0, 300)).toBe(0);
  });
});

describe("turningPoints", () => {
  it("labels the first and last points and every local high and low", () => {
    //                     0  1  2  3  4  5  6  7  8
    expect(turningPoints([3, 5, 8, 6, 4, 4, 7, 9, 9])).toEqual([0, 2, 4, 8]);
  });

  it("puts a flat top's label at its start", () => {
    expect(turningPoints([1, 4, 4, 4, 2, 0], 1)).toEqual([0, 1, 5]);
    expect(turningPoints([0, 0, 3, 3, 3, 1, 1, 4], 1)).toEqual([0, 2, 5, 7]);
  });

  it("drops a turn too close to the label before it", () => {
    expect(turningPoints([1, 2, 1, 2, 1, 2, 1], 2)).toEqual([0, 2, 4, 6]);
    expect(turningPoints([5, 5, 5])).toEqual([0, 2]);
    expect(turningPoints([])).toEqual([]);
  });
});
