/**
 * Which saved place the home page shows whole: the one its address names (`/?place=ID`, so a reload, a shared
 * link and a page without JavaScript all open the same place), else the first. One place open at a time.
 */
export function openPlaceId(ids: readonly string[], search: URLSearchParams): string | null {
  const wanted = search.get("place");
  return wanted !== null && ids.includes(wanted) ? wanted : (ids[0] ?? null);
}

/** The address that opens a place on the home page. */
export const placeHref = (placeId: string) => `/?${new URLSearchParams({ place: placeId })}`;

/** The place `offset` steps from `id` in the user's order, or null past either end (a swipe does not wrap around). */
export function neighbourId(ids: readonly string[], id: string, offset: number): string | null {
  const index = ids.indexOf(id);
  return index < 0 ? null : (ids[index + offset] ?? null);
}
