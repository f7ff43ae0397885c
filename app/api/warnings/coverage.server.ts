import { METEOALARM_FEEDS } from "./meteoalarm-countries.server";
import { METEOALARM_CREDIT, NWS_CREDIT, type Coverage, type WarningPlace } from "./official-warning.server";

/** The NWS issues warnings for the states and these territories (its alerts API answers points in them). */
const NWS_COUNTRIES = new Set(["US", "PR", "VI", "GU", "AS", "MP"]);

/** NWS areas are points rounded to this many decimals (about 1 km): every place within shares one fetch. */
export const NWS_GRID_DECIMALS = 2;

/** A coordinate on the NWS grid, as the request and the cache key write it. */
export function gridPoint(latitude: number, longitude: number): string {
  const round = (value: number) => String(Number(value.toFixed(NWS_GRID_DECIMALS)));
  return `${round(latitude)},${round(longitude)}`;
}

/** Which service, if any, issues official warnings for the place, and the shared area its warnings are fetched for. */
export function coverageOf(place: WarningPlace): Coverage {
  const country = place.countryCode?.trim().toUpperCase();
  if (!country) return { covered: false, reason: "no-country" };
  if (NWS_COUNTRIES.has(country)) {
    if (!Number.isFinite(place.latitude) || !Number.isFinite(place.longitude)) return { covered: false, reason: "no-country" };
    return { covered: true, serviceId: "nws", credit: NWS_CREDIT, areaKey: `nws:${gridPoint(place.latitude, place.longitude)}` };
  }
  const feed = METEOALARM_FEEDS[country];
  if (feed) return { covered: true, serviceId: "meteoalarm", credit: METEOALARM_CREDIT, areaKey: `meteoalarm:${country}` };
  return { covered: false, reason: "outside-covered-areas" };
}
