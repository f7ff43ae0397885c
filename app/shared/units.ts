import type { WindSpeedUnit } from "./schema-enums.generated";
import { cachedValue } from "./bounded-cache";

/** Turning the API's metric values into the user's units, formatted for their locale. */
export type UnitSettings = {
  locale: string;
  temperatureUnit: string;
  windSpeedUnit: string;
  precipitationUnit: string;
};

// Intl formatters are costly to build and the engine formats thousands of values a pass.
// Building one costs 5 to 40 µs, against well under one to use it: a page of ten cards built dozens.
type Formatter = Intl.NumberFormat | Intl.DateTimeFormat | Intl.ListFormat | Intl.DisplayNames;
const formatters = new Map<string, Formatter>();
function cached<T extends Formatter>(key: string, create: () => T): T {
  let formatter = formatters.get(key) as T | undefined;
  if (!formatter) {
    formatter = create();
    formatters.set(key, formatter);
  }
  return formatter;
}

/** Texts cached by format and instant; cleared whole when full, so it never holds more than this many. */
export const MAX_CACHED_INSTANT_TEXTS = 20_000;
const instantTexts = new Map<string, string>();

/**
 * The text `compute` gives for an instant under `key` (a format, its locale and zone), cached: pages and the bot's
 * messages format the same few hours over and over (a tick's alerts, ten cards' hours), and each Intl call costs far
 * more than a lookup (the engine's formatting of 28,000 alerts spent two thirds of its time in Intl).
 */
export function cachedInstantText(key: string, instant: Date, compute: (instant: Date) => string): string {
  return cachedValue(instantTexts, MAX_CACHED_INSTANT_TEXTS, `${key}|${instant.getTime()}`, () => compute(instant));
}

/** An instant in a date-time format (built once under `key` from `options`), its text cached (see cachedInstantText). */
export const formatInstant = (key: string, instant: Date, options: () => Intl.DateTimeFormatOptions & { locale: string }) =>
  cachedInstantText(key, instant, () => {
    const { locale, ...rest } = options();
    return cached(key, () => new Intl.DateTimeFormat(locale, rest)).format(instant);
  });

/** A number format, with the texts it gave by value (see number). */
type NumberWriter = { format: Intl.NumberFormat; texts: Map<number, string> };
/** Most texts cached per number format: then it starts again. */
export const MAX_CACHED_NUMBER_TEXTS = 5_000;
/** By locale, then by decimals and fixedness (`digits * 2 + fixed`): no key is built per figure. */
const numberWriters = new Map<string, NumberWriter[]>();

/**
 * `digits` decimals at most, or exactly that many when `fixed` ("29.80"). The texts are cached by value: a page
 * writes some two hundred figures, the same forecasts' from page to page, and Intl's format costs far more than
 * a lookup.
 */
const number = (locale: string, value: number, digits = 0, fixed = false): string => {
  let writers = numberWriters.get(locale);
  if (!writers) numberWriters.set(locale, (writers = []));
  const slot = digits * 2 + (fixed ? 1 : 0);
  const writer = (writers[slot] ??= numberWriter(locale, { maximumFractionDigits: digits, minimumFractionDigits: fixed ? digits : 0 }));
  return written(writer, value);
};

// "negative": a value that rounds to zero is "0", never "-0" (a night at -0.3 °C read "-0°", issue 35).
const numberWriter = (locale: string, options: Intl.NumberFormatOptions): NumberWriter => ({
  format: new Intl.NumberFormat(locale, { signDisplay: "negative", ...options }),
  texts: new Map(),
});

/** The text of `value`, cached; Intl writes `shown` (a percentage writes value / 100). */
const written = (writer: NumberWriter, value: number, shown = value): string =>
  cachedValue(writer.texts, MAX_CACHED_NUMBER_TEXTS, value, () => writer.format.format(shown));

export function formatTemperature(celsius: number, units: UnitSettings): string {
  return units.temperatureUnit === "FAHRENHEIT"
    ? `${number(units.locale, (celsius * 9) / 5 + 32)} °F`
    : `${number(units.locale, celsius)} °C`;
}

type WindUnit = { kmh: number; label: string };

/** Each wind unit by how many km/h one of it is, and its label: the one table for formatting and for the alert editor. */
const WIND_UNITS: Readonly<Record<string, WindUnit>> = {
  KMH: { kmh: 1, label: "km/h" },
  MS: { kmh: 3.6, label: "m/s" },
  MPH: { kmh: 1.609344, label: "mph" },
  KN: { kmh: 1.852, label: "kn" },
} satisfies Record<WindSpeedUnit, WindUnit>;

/** The reader's wind unit; km/h for a unit this build does not know. */
export const windUnit = (units: Pick<UnitSettings, "windSpeedUnit">): WindUnit => WIND_UNITS[units.windSpeedUnit] ?? WIND_UNITS.KMH!;

export function formatWindSpeed(kmh: number, units: UnitSettings): string {
  const unit = windUnit(units);
  return `${number(units.locale, kmh / unit.kmh)} ${unit.label}`;
}

export function formatPrecipitation(mm: number, units: UnitSettings): string {
  return units.precipitationUnit === "INCH" ? `${number(units.locale, mm / 25.4, 2)} in` : `${number(units.locale, mm, 1)} mm`;
}

/**
 * Sea-level pressure: inches of mercury where rain is measured in inches (the US), always with two decimals
 * ("29.80 inHg", as barometers write it), else hectopascals.
 */
export function formatPressure(hpa: number, units: UnitSettings): string {
  return units.precipitationUnit === "INCH" ? `${number(units.locale, hpa * 0.02953, 2, true)} inHg` : `${number(units.locale, hpa)} hPa`;
}

/** How far one can see: miles where wind is in mph, else kilometres (metres under one). */
export function formatVisibility(metres: number, units: UnitSettings): string {
  if (units.windSpeedUnit === "MPH") return `${number(units.locale, metres / 1609.344, metres < 16_093 ? 1 : 0)} mi`;
  return metres < 1000 ? `${number(units.locale, metres)} m` : `${number(units.locale, metres / 1000, metres < 10_000 ? 1 : 0)} km`;
}

/** The eight compass points, clockwise from north, as keys of weather.compass. */
export const COMPASS_POINTS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"] as const;

/** The compass point a wind comes from (0° = north). */
export function compassPoint(degrees: number): (typeof COMPASS_POINTS)[number] {
  return COMPASS_POINTS[Math.round((((degrees % 360) + 360) % 360) / 45) % 8]!;
}

/** "9 h 13 min": a day's length of daylight. */
export function formatDuration(seconds: number, locale: string): string {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.round((seconds % 3600) / 60);
  const parts = [
    cached(`dh|${locale}`, () => new Intl.NumberFormat(locale, { style: "unit", unit: "hour", unitDisplay: "short" })).format(hours),
  ];
  if (minutes) parts.push(formatMinutes(minutes, locale));
  return parts.join(" ");
}

/** A plain number in the reader's locale, with at most `digits` decimals. */
export function formatNumber(value: number, locale: string, digits = 0): string {
  return number(locale, value, digits);
}

/** "grass 24, birch 3", "Mon, Wed, Fri": a short list, joined as the locale joins one. */
export function formatShortList(items: readonly string[], locale: string): string {
  return cached(`ls|${locale}`, () => new Intl.ListFormat(locale, { style: "short", type: "unit" })).format(items);
}

/** "Switzerland", "Schweiz": a country's name in the locale, from its ISO 3166 code. */
export function formatRegionName(code: string, locale: string): string | undefined {
  return cached(`rn|${locale}`, () => new Intl.DisplayNames([locale], { type: "region" })).of(code);
}

/** The formatter of a date with a time ("Nov 24, 2026, 6:05 PM") in a zone and on a clock, cached per locale, zone and clock. */
export function dateTimeFormat(locale: string, timeZone: string, hour12: boolean): Intl.DateTimeFormat {
  return cached(
    `dt|${locale}|${timeZone}|${hour12}`,
    () => new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone, hourCycle: hourCycle(hour12) }),
  );
}

/** "30 min": how far ahead a rain-soon rule looks. */
export function formatMinutes(minutes: number, locale: string): string {
  return cached(`dm|${locale}`, () => new Intl.NumberFormat(locale, { style: "unit", unit: "minute", unitDisplay: "short" })).format(
    minutes,
  );
}

/** By locale: a page writes a chance of rain per hour and day, the same few values again and again (see number). */
const percentWriters = new Map<string, NumberWriter>();

export function formatPercent(percent: number, locale: string): string {
  let writer = percentWriters.get(locale);
  if (!writer) percentWriters.set(locale, (writer = numberWriter(locale, { style: "percent", maximumFractionDigits: 0 })));
  return written(writer, percent, percent / 100);
}

/**
 * The clock as an explicit hour cycle: `hour12: false` lets some ICU versions pick "h24"
 * (24:30 after midnight), and the server's and the browser's ICU must write the same text.
 */
export const hourCycle = (hour12: boolean) => (hour12 ? "h12" : "h23");

/** The hour and minute of a clock: "6:00 PM" on a 12-hour clock, "06:00" on a 24-hour one. */
const clockParts = (hour12: boolean) =>
  ({ hour: hour12 ? "numeric" : "2-digit", minute: "2-digit", hourCycle: hourCycle(hour12) }) as const;

export function formatClock(instant: Date, locale: string, timeZone: string, hour12: boolean): string {
  return formatInstant(`c|${locale}|${timeZone}|${hour12}`, instant, () => ({ locale, ...clockParts(hour12), timeZone }));
}

/** "Tue 6:00 PM": a weekday and a time, for moments in the coming days. */
export function formatWeekdayClock(instant: Date, locale: string, timeZone: string, hour12: boolean): string {
  return formatInstant(`wc|${locale}|${timeZone}|${hour12}`, instant, () => ({
    locale,
    weekday: "short",
    ...clockParts(hour12),
    timeZone,
  }));
}

/** The hour alone ("6 PM", "18"), for a strip of hours. */
export function formatHour(instant: Date, locale: string, timeZone: string, hour12: boolean): string {
  return formatInstant(`h|${locale}|${timeZone}|${hour12}`, instant, () => ({
    locale,
    hour: "numeric",
    hourCycle: hourCycle(hour12),
    timeZone,
  }));
}

export function formatWeekday(instant: Date, locale: string, timeZone: string): string {
  return formatInstant(`w|${locale}|${timeZone}`, instant, () => ({ locale, weekday: "short", timeZone }));
}

/** A temperature without its unit ("12°"), for tight spaces where the unit is shown once nearby. */
export function formatDegrees(celsius: number, units: UnitSettings): string {
  return `${number(units.locale, units.temperatureUnit === "FAHRENHEIT" ? (celsius * 9) / 5 + 32 : celsius)}°`;
}

export function formatUvIndex(uvIndex: number, locale: string): string {
  return number(locale, uvIndex);
}
