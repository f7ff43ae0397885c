/** The day detail's address on `/`: which saved place, which of its days. A plain link survives a reload. */
export type DayDetailTarget = { placeId: string; date: string };

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function dayDetailHref({ placeId, date }: DayDetailTarget): string {
  return `/?${new URLSearchParams({ place: placeId, day: date })}`;
}

/** The target named by a URL's search, or null when it names none (or not a date). */
export function dayDetailTarget(search: URLSearchParams): DayDetailTarget | null {
  const placeId = search.get("place");
  const date = search.get("day");
  return placeId && date && DATE.test(date) ? { placeId, date } : null;
}
