import type { CapArea } from "./cap-message.server";
import type { WarningMatch, WarningPlace } from "./official-warning.server";
import { containsPoint } from "./point-in-polygon.server";

/**
 * Which of a MeteoAlarm warning's areas concern a place (decision 022). Areas with polygons
 * decide by the point: inside one, it matches; outside all, it does not. Areas without them
 * carry only codes (EMMA_ID, NUTS3, FIPS) whose shapes MeteoAlarm publishes apart from the
 * feeds, so they match by name (an area named as the place or its region), else as a warning
 * elsewhere in the place's country, with the area names saying where.
 */
export type AreaMatch = { match: WarningMatch; areas: string[] };

/** Lower case, without accents or punctuation: "Île-de-France" and "ile de france" are one name. */
function comparable(name: string): string {
  return name
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

export function matchAreas(areas: readonly CapArea[], place: WarningPlace): AreaMatch | null {
  const withPolygons = areas.filter((area) => area.polygons.length > 0);
  if (withPolygons.length > 0) {
    const hits = withPolygons.filter((area) => area.polygons.some((polygon) => containsPoint(polygon, place.latitude, place.longitude)));
    return hits.length > 0 ? { match: "point", areas: unique(hits.map((area) => area.areaDesc)) } : null;
  }
  const names = [place.name, place.admin1].filter((name): name is string => !!name?.trim()).map(comparable);
  const named = areas.filter((area) => {
    const areaName = comparable(area.areaDesc);
    return areaName !== "" && names.includes(areaName);
  });
  if (named.length > 0) return { match: "area-name", areas: unique(named.map((area) => area.areaDesc)) };
  return { match: "country", areas: unique(areas.map((area) => area.areaDesc)) };
}

function unique(names: string[]): string[] {
  return [...new Set(names.filter(Boolean))];
}
