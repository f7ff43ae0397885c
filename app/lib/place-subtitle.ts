import { formatRegionName } from "~/shared/units";

type Place = { label: string; name: string; admin1?: string | null; countryCode?: string | null };

/**
 * Where a place is: its own name when the user labelled it otherwise, its region and its country, each said once
 * ("Home" in Zurich reads "Zurich, Switzerland", not "Zurich, Zurich, Switzerland": the city is its canton's name).
 */
export function placeSubtitle(place: Place, locale: string): string {
  const country = place.countryCode ? formatRegionName(place.countryCode, locale) : null;
  const parts = [place.label !== place.name ? place.name : null, place.admin1, country];
  return parts.filter((part, index): part is string => Boolean(part) && parts.indexOf(part) === index).join(", ");
}
