import { describe, expect, it } from "vitest";
import { inOrder, moveBy, moveTo } from "~/lib/place-order";

describe("place order", () => {
  const ids = ["berlin", "zurich", "london"];

  it("moves a place by an offset, twice in a row from the first result", () => {
    const once = moveBy(ids, "london", -1);
    expect(once).toEqual(["berlin", "london", "zurich"]);
    expect(moveBy(once, "london", -1)).toEqual(["london", "berlin", "zurich"]);
  });

  it("clamps at both ends and ignores an unknown id", () => {
    expect(moveBy(ids, "berlin", -1)).toEqual(ids);
    expect(moveBy(ids, "london", 5)).toEqual(ids);
    expect(moveTo(ids, "zurich", 0)).toEqual(["zurich", "berlin", "london"]);
    expect(moveTo(ids, "paris", 0)).toEqual(ids);
  });

  it("shows items in a pending order, dropping removed ones and keeping new ones last", () => {
    const items = [{ id: "berlin" }, { id: "london" }, { id: "oslo" }];
    expect(inOrder(items, ["london", "zurich", "berlin"]).map((item) => item.id)).toEqual(["london", "berlin", "oslo"]);
    expect(inOrder(items, null)).toEqual(items);
  });
});
