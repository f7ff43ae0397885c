import { afterEach, describe, expect, it, vi } from "vitest";
import { currentPosition, distanceKm, nearestWithin, POSITION_TIMEOUT_MS, PositionError, roundCoordinates } from "~/lib/geolocation";

/** A Geolocation that answers as told (or never). */
function fakeGeolocation(answer: { coords?: { latitude: number; longitude: number }; code?: number } | "never"): Geolocation {
  return {
    getCurrentPosition(success: PositionCallback, failure?: PositionErrorCallback | null) {
      if (answer === "never") return;
      if (answer.coords) success({ coords: answer.coords } as GeolocationPosition);
      else failure?.({ code: answer.code } as GeolocationPositionError);
    },
  } as Geolocation;
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (error: unknown) => (error instanceof PositionError ? error.failure : error),
  );

describe("currentPosition", () => {
  afterEach(() => vi.useRealTimers());

  it("gives the browser's position rounded to two decimals (about a kilometre)", async () => {
    await expect(currentPosition(fakeGeolocation({ coords: { latitude: 47.376887, longitude: 8.541694 } }))).resolves.toEqual({
      latitude: 47.38,
      longitude: 8.54,
    });
  });

  it("says why there is no position: refused, timed out, unavailable, or no geolocation at all", async () => {
    expect(await failureOf(currentPosition(fakeGeolocation({ code: 1 })))).toBe("denied");
    expect(await failureOf(currentPosition(fakeGeolocation({ code: 2 })))).toBe("unavailable");
    expect(await failureOf(currentPosition(fakeGeolocation({ code: 3 })))).toBe("timeout");
    expect(await failureOf(currentPosition(undefined))).toBe("unsupported");
  });

  it("times out on its own when the browser never answers (a prompt left open)", async () => {
    vi.useFakeTimers();
    const failure = failureOf(currentPosition(fakeGeolocation("never")));
    await vi.advanceTimersByTimeAsync(POSITION_TIMEOUT_MS);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await failure).toBe("timeout");
  });
});

describe("where the person is among their places", () => {
  const zurich = { latitude: 47.38, longitude: 8.54 };
  const bern = { latitude: 46.95, longitude: 7.45 };

  it("measures great-circle distances", () => {
    expect(distanceKm(zurich, bern)).toBeGreaterThan(94);
    expect(distanceKm(zurich, bern)).toBeLessThan(97);
    expect(distanceKm(zurich, zurich)).toBe(0);
  });

  it("finds the nearest saved place within 2 km, and none farther", () => {
    const places = [
      { id: "bern", ...bern },
      { id: "office", latitude: 47.37, longitude: 8.55 },
      { id: "home", latitude: 47.38, longitude: 8.53 },
    ];
    expect(nearestWithin(places, zurich)?.id).toBe("home");
    expect(nearestWithin(places, { latitude: 47.5, longitude: 8.7 })).toBeUndefined();
  });

  it("rounds negative and three-digit coordinates alike", () => {
    expect(roundCoordinates({ latitude: -33.8688, longitude: 151.2093 })).toEqual({ latitude: -33.87, longitude: 151.21 });
  });
});
