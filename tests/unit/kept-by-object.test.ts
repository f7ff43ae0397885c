import { describe, expect, it, vi } from "vitest";
import { KEPT_PER_OBJECT_MAX, keptByObject } from "~/lib/kept-by-object";

describe("keptByObject", () => {
  it("derives once per object and key, from the arguments the key names", () => {
    const derive = vi.fn((hours: number[], unit: string) => hours.map((hour) => `${hour} ${unit}`).join(", "));
    const labels = keptByObject(derive);
    const hours = [1, 2];

    expect(labels(hours, "h", "h")).toBe("1 h, 2 h");
    expect(labels(hours, "h", "h")).toBe("1 h, 2 h");
    expect(derive).toHaveBeenCalledTimes(1);

    // Another key, or another object with the same contents (a new answer), is derived anew.
    expect(labels(hours, "min", "min")).toBe("1 min, 2 min");
    expect(labels([1, 2], "h", "h")).toBe("1 h, 2 h");
    expect(derive).toHaveBeenCalledTimes(3);
  });

  it("keeps what derive gave even when it is null", () => {
    const derive = vi.fn((): null => null);
    const nothing = keptByObject(derive);
    const report = {};
    expect(nothing(report, "")).toBeNull();
    expect(nothing(report, "")).toBeNull();
    expect(derive).toHaveBeenCalledTimes(1);
  });

  it("keeps nothing in the browser, where a card renders again when its answer changed", () => {
    vi.stubEnv("SSR", false);
    try {
      const derive = vi.fn((hours: number[]) => hours.length);
      const count = keptByObject(derive);
      const hours = [1, 2];
      expect(count(hours, "")).toBe(2);
      expect(count(hours, "")).toBe(2);
      expect(derive).toHaveBeenCalledTimes(2);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("keeps a bounded number of values per object, starting again past it", () => {
    const derive = vi.fn((_object: object, hour: number) => hour * 2);
    const doubled = keptByObject(derive);
    const forecast = {};
    for (let hour = 0; hour <= KEPT_PER_OBJECT_MAX; hour++) expect(doubled(forecast, String(hour), hour)).toBe(hour * 2);
    expect(derive).toHaveBeenCalledTimes(KEPT_PER_OBJECT_MAX + 1);
    // The first values went when the object's values were full; the last one is kept.
    doubled(forecast, String(KEPT_PER_OBJECT_MAX), KEPT_PER_OBJECT_MAX);
    expect(derive).toHaveBeenCalledTimes(KEPT_PER_OBJECT_MAX + 1);
    doubled(forecast, "0", 0);
    expect(derive).toHaveBeenCalledTimes(KEPT_PER_OBJECT_MAX + 2);
  });
});
