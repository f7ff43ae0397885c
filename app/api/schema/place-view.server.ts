import type { PlaceTable } from "../db/tables";

/** A place row as the Place type's resolvers receive it. */
export function placeView(row: PlaceTable) {
  return {
    id: row.id,
    label: row.label,
    name: row.name,
    admin1: row.admin1,
    countryCode: row.country_code,
    latitude: row.latitude,
    longitude: row.longitude,
    timeZone: row.time_zone,
    position: row.position,
  };
}

export type PlaceView = ReturnType<typeof placeView>;
