import type { GeocodedLocation } from "./open-meteo.server";

export type RecentLocations = {
  remember(location: GeocodedLocation): void;
  get(id: string): GeocodedLocation | undefined;
};

/**
 * Search results the server has handed out, so addPlace(locationId) can save one without
 * trusting coordinates from the client. Bounded; the oldest go first. One per API, so two
 * APIs in one process (tests) do not share what they handed out.
 */
export function createRecentLocations(maxEntries = 5000): RecentLocations {
  const locations = new Map<string, GeocodedLocation>();
  return {
    remember(location) {
      const id = String(location.id);
      locations.delete(id);
      locations.set(id, location);
      if (locations.size > maxEntries) locations.delete(locations.keys().next().value!);
    },
    get: (id) => locations.get(id),
  };
}
