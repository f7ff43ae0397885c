/** Where the browser says it is, for "Use my location". */
export type Coordinates = { latitude: number; longitude: number };

/** Why no position came: each has its own message for the person. */
export type PositionFailure = "denied" | "timeout" | "unavailable" | "unsupported";

/** How long a person waits for a fix before they are told to try again or search instead. */
export const POSITION_TIMEOUT_MS = 15_000;

export class PositionError extends Error {
  constructor(readonly failure: PositionFailure) {
    super(`No position: ${failure}`);
  }
}

/**
 * Two decimals, about a kilometre: as close as a forecast needs, and no closer is sent or
 * kept (a saved place's coordinates are visible to whoever sees the account).
 */
export function roundCoordinates({ latitude, longitude }: Coordinates): Coordinates {
  return { latitude: Math.round(latitude * 100) / 100, longitude: Math.round(longitude * 100) / 100 };
}

/** The browser's position, rounded; rejects with a PositionError that says why not. */
export function currentPosition(geolocation: Geolocation | undefined = globalThis.navigator?.geolocation): Promise<Coordinates> {
  return new Promise((resolve, reject) => {
    if (!geolocation) return reject(new PositionError("unsupported"));
    // The browser's own timeout does not run while it asks the person: this one always does.
    const timer = setTimeout(() => reject(new PositionError("timeout")), POSITION_TIMEOUT_MS + 1_000);
    geolocation.getCurrentPosition(
      ({ coords }) => {
        clearTimeout(timer);
        resolve(roundCoordinates(coords));
      },
      (error) => {
        clearTimeout(timer);
        reject(new PositionError(error.code === 1 ? "denied" : error.code === 3 ? "timeout" : "unavailable"));
      },
      // Asked for on a press: a position cached from before may be a place left since.
      { timeout: POSITION_TIMEOUT_MS, maximumAge: 0, enableHighAccuracy: false },
    );
  });
}

/** Great-circle distance in kilometres. */
export function distanceKm(a: Coordinates, b: Coordinates): number {
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The saved place nearest to `at` within `km`, if any: being there already is not a new place. */
export function nearestWithin<T extends Coordinates>(places: readonly T[], at: Coordinates, km = 2): T | undefined {
  let nearest: T | undefined;
  let best = km;
  for (const place of places) {
    const distance = distanceKm(place, at);
    if (distance <= best) {
      nearest = place;
      best = distance;
    }
  }
  return nearest;
}
