import { describe, expect, it } from "vitest";
import { placeSubtitle } from "~/lib/place-subtitle";

describe("a place's subtitle", () => {
  it("says the place's own name under a label of the user's, then its region and country", () => {
    expect(placeSubtitle({ label: "Office", name: "Berlin", admin1: "Land Berlin", countryCode: "DE" }, "en-US")).toBe(
      "Berlin, Land Berlin, Germany",
    );
    expect(placeSubtitle({ label: "Paris", name: "Paris", admin1: "Île-de-France", countryCode: "FR" }, "de-DE")).toBe(
      "Île-de-France, Frankreich",
    );
  });

  it("says a name once where the region is named after the city", () => {
    expect(placeSubtitle({ label: "Home", name: "Zurich", admin1: "Zurich", countryCode: "CH" }, "en-US")).toBe("Zurich, Switzerland");
  });

  it("is empty for a place saved by its coordinates alone", () => {
    expect(placeSubtitle({ label: "Current location", name: "Current location", admin1: null, countryCode: null }, "en-US")).toBe("");
  });
});
