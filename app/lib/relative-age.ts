const formats = new Map<string, Intl.RelativeTimeFormat>();
function relativeTimeFormat(locale: string): Intl.RelativeTimeFormat {
  let format = formats.get(locale);
  if (!format) formats.set(locale, (format = new Intl.RelativeTimeFormat(locale, { numeric: "auto" })));
  return format;
}

/** "5 minutes ago", "3 hours ago", "2 days ago" in the locale's words; a time ahead of `now` reads as now. */
export function formatRelativeAge(locale: string, then: number, now: number): string {
  const minutes = Math.max(0, Math.round((now - then) / 60_000));
  const format = relativeTimeFormat(locale);
  if (minutes < 60) return format.format(-minutes, "minute");
  const hours = Math.round(minutes / 60);
  if (hours < 48) return format.format(-hours, "hour");
  return format.format(-Math.round(hours / 24), "day");
}
