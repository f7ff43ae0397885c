/** A wall-clock time, 24 h, as the LocalTime scalar and the forms take it ("07:30"). */
export function isLocalTime(value: string): boolean {
  return /^([01]\d|2[0-3]):[0-5]\d$/.test(value);
}
