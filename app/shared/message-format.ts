import type { AlertMetric } from "./schema-enums.generated";
import {
  pickWarningText,
  windowBounds,
  type AlertPlaceWindows,
  type AlertWindow,
  type MessageContent,
  type WarningContent,
} from "./message-content";
import {
  formatClock,
  formatInstant,
  formatPercent,
  formatPrecipitation,
  formatTemperature,
  formatWeekday,
  formatWindSpeed,
  cachedInstantText,
  type UnitSettings,
} from "./units";

/** Who reads the message: their locale tag ("de-DE"), units, clock and zone, as they are now. */
export type MessageReader = UnitSettings & { hour12: boolean; timeZone: string };

/**
 * The bot's texts (locales/<locale>/bot.json) in the reader's language: the server passes its
 * compiled templates, the browser its i18next instance's `getFixedT(locale, "bot")`.
 */
export type MessageTexts = (key: string, values?: Record<string, string | number>) => string;

/** Gusts below this are not worth a word in a briefing. */
const NOTEWORTHY_GUSTS_KMH = 40;

export function formatMetric(metric: AlertMetric, value: number, units: UnitSettings): string {
  switch (metric) {
    case "TEMPERATURE":
    case "APPARENT_TEMPERATURE":
      return formatTemperature(value, units);
    case "PRECIPITATION":
    case "RAIN_SOON": // its peak: the rain of its wettest quarter hour
      return formatPrecipitation(value, units);
    case "SNOWFALL":
      return formatPrecipitation(value * 10, units); // cm of snow, shown like precipitation depth
    case "PRECIPITATION_PROBABILITY":
      return formatPercent(value, units.locale);
    case "WIND_SPEED":
    case "WIND_GUSTS":
      return formatWindSpeed(value, units);
    case "UV_INDEX":
    case "AQI":
    case "CONDITION":
      return String(Math.round(value));
  }
}

const zoneNames = new Map<string, Intl.DateTimeFormat>();
/**
 * "GMT-5": the zone by its offset then, short and alike in every language (names such as
 * "Vereinigtes Königreich (Ortszeit)" are neither).
 */
function zoneName(instant: Date, locale: string, timeZone: string): string {
  const key = `${locale}|${timeZone}`;
  return cachedInstantText(`zn|${key}`, instant, () => {
    let format = zoneNames.get(key);
    if (!format) {
      format = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: "shortOffset" });
      zoneNames.set(key, format);
    }
    return format.formatToParts(instant).find((part) => part.type === "timeZoneName")?.value ?? timeZone;
  });
}

/** The calendar day of an instant in a zone, to tell whether two instants fall on one day. */
function dayOf(instant: Date, timeZone: string): string {
  return formatInstant(`d|${timeZone}`, instant, () => ({ locale: "en-CA", timeZone, year: "numeric", month: "2-digit", day: "2-digit" }));
}

/**
 * The zone to name beside the place's times, or null when the reader's clock shows the same
 * times (their zone, or another with the same offset then): a label only where it helps.
 */
function zoneLabel(instant: Date, placeZone: string, reader: MessageReader): string | null {
  if (placeZone === reader.timeZone) return null;
  const same = formatClock(instant, "en-US", placeZone, false) === formatClock(instant, "en-US", reader.timeZone, false);
  return same && dayOf(instant, placeZone) === dayOf(instant, reader.timeZone) ? null : zoneName(instant, reader.locale, placeZone);
}

const clock = (instant: Date, timeZone: string, reader: MessageReader) => formatClock(instant, reader.locale, timeZone, reader.hour12);
const dayAndClock = (instant: Date, timeZone: string, reader: MessageReader) =>
  `${formatWeekday(instant, reader.locale, timeZone)} ${clock(instant, timeZone, reader)}`;

const capitalised = (text: string, locale: string) => text.charAt(0).toLocaleUpperCase(locale) + text.slice(1);

const listFormats = new Map<string, Intl.ListFormat>();
/** "Reykjavík, London and Oslo", in the reader's language. */
function listOf(items: string[], locale: string): string {
  let format = listFormats.get(locale);
  if (!format) {
    format = new Intl.ListFormat(locale, { type: "conjunction" });
    listFormats.set(locale, format);
  }
  return format.format(items);
}

/**
 * "Sat 03:00–05:00": a window's first hour and its end, each with its day unless it is the day
 * named just before (`dayBefore`, the previous window's last day).
 */
function spanOf(window: AlertWindow, dayBefore: string | null, zone: string, reader: MessageReader, t: MessageTexts): string {
  const { from, to } = windowBounds(window);
  const firstDay = dayOf(from, zone);
  const sameDay = dayOf(new Date(to.getTime() - 1000), zone) === firstDay;
  return t("alert.span", {
    from: firstDay === dayBefore ? clock(from, zone, reader) : dayAndClock(from, zone, reader),
    to: sameDay ? clock(to, zone, reader) : dayAndClock(to, zone, reader),
  });
}

/** A place's windows, in its zone ("Sat 03:00–05:00, 14:00–18:00 GMT+0" when the reader's clock differs). */
function spansOf({ place, windows }: AlertPlaceWindows, reader: MessageReader, t: MessageTexts): string {
  const zone = place.timeZone;
  const spans = windows
    .map((window, index) => {
      const before = index > 0 ? dayOf(new Date(windowBounds(windows[index - 1]!).to.getTime() - 1000), zone) : null;
      return spanOf(window, before, zone, reader, t);
    })
    .join(", ");
  const label = zoneLabel(windowBounds(windows[0]!).from, place.timeZone, reader);
  return label ? t("alert.spansZoned", { windows: spans, zone: label }) : spans;
}

/** An alert that tells several windows, at one place or several: each place with its windows, and the worst of them. */
function formatAlertMany(content: MessageContent, alertPlaces: AlertPlaceWindows[], reader: MessageReader, t: MessageTexts) {
  const peakPlace = content.place!;
  const where =
    alertPlaces.length === 1
      ? t("alert.placeWindows", { place: peakPlace.label, windows: spansOf(alertPlaces[0]!, reader, t) })
      : listOf(
          alertPlaces.map((entry) => t("alert.placesWindow", { place: entry.place.label, windows: spansOf(entry, reader, t) })),
          reader.locale,
        );
  const peakClock = dayAndClock(new Date(content.peakAt!), peakPlace.timeZone, reader);
  const peakAt = alertPlaces.length === 1 ? peakClock : t("alert.peakAtPlace", { peakAt: peakClock, place: peakPlace.label });
  const body =
    content.metric === "CONDITION"
      ? t("alert.conditionBodyMany", { where, condition: t(`condition.${content.condition ?? "UNKNOWN"}`) })
      : content.metric === "RAIN_SOON"
        ? t("alert.rainSoonBodyMany", { where, peak: formatPrecipitation(content.peakValue ?? 0, reader) })
        : t("alert.bodyMany", {
            where,
            metric: content.metric === "AQI" && content.aqiScale ? t(`aqiScale.${content.aqiScale}`) : t(`metric.${content.metric}`),
            peak: formatMetric(content.metric!, content.peakValue ?? 0, reader),
            peakAt,
          });
  const places = listOf(
    alertPlaces.map((entry) => entry.place.label),
    reader.locale,
  );
  return { title: t("alert.title", { rule: content.ruleName ?? "", place: places }), body: capitalised(body, reader.locale) };
}

function formatAlert(content: MessageContent, reader: MessageReader, t: MessageTexts) {
  const many = content.alertPlaces;
  if (many && (many.length > 1 || many.some((entry) => entry.windows.length > 1))) return formatAlertMany(content, many, reader, t);
  const place = content.place!;
  const zone = place.timeZone;
  const from = new Date(content.from!);
  const to = new Date(content.to!);
  const peakAt = new Date(content.peakAt ?? content.from!);
  const firstDay = dayOf(from, zone);
  // `to` is the end of the last hour: a window that ends at midnight ends on its own day.
  const sameDay = dayOf(new Date(to.getTime() - 1000), zone) === firstDay;
  const times = { from: dayAndClock(from, zone, reader), to: sameDay ? clock(to, zone, reader) : dayAndClock(to, zone, reader) };
  const label = zoneLabel(from, zone, reader);
  const window = label ? t("alert.windowZoned", { ...times, zone: label }) : t("alert.window", times);
  const body =
    content.metric === "CONDITION"
      ? t("alert.conditionBody", { place: place.label, window, condition: t(`condition.${content.condition ?? "UNKNOWN"}`) })
      : content.metric === "RAIN_SOON"
        ? t("alert.rainSoonBody", { place: place.label, window, peak: formatPrecipitation(content.peakValue ?? 0, reader) })
        : t("alert.body", {
            place: place.label,
            window,
            // AQI figures name their scale ("US AQI 185"): a reader may read the other one now.
            metric: content.metric === "AQI" && content.aqiScale ? t(`aqiScale.${content.aqiScale}`) : t(`metric.${content.metric}`),
            peak: formatMetric(content.metric!, content.peakValue ?? 0, reader),
            peakAt: dayOf(peakAt, zone) === firstDay ? clock(peakAt, zone, reader) : dayAndClock(peakAt, zone, reader),
          });
  // Conditions are written lower-case for use inside sentences; a body starts with a capital.
  return { title: t("alert.title", { rule: content.ruleName ?? "", place: place.label }), body: capitalised(body, reader.locale) };
}

function formatBriefing(content: MessageContent, reader: MessageReader, t: MessageTexts) {
  const title = t("briefing.title", { name: content.briefingName ?? "", period: t(`period.${content.period}`) });
  const places = content.places ?? [];
  if (places.length === 0) return { title, body: t("briefing.noPlaces") };
  const lines = places.map((figures) => {
    const { place } = figures;
    if (figures.minTemperature == null || figures.maxTemperature == null) return t("briefing.unavailable", { place: place.label });
    const parts = [
      t("briefing.line", {
        place: place.label,
        condition: t(`condition.${figures.condition ?? "UNKNOWN"}`),
        min: formatTemperature(figures.minTemperature, reader),
        max: formatTemperature(figures.maxTemperature, reader),
      }),
    ];
    if (figures.rainFrom) {
      const rainFrom = new Date(figures.rainFrom);
      const label = zoneLabel(rainFrom, place.timeZone, reader);
      const values = {
        from: clock(rainFrom, place.timeZone, reader),
        probability: formatPercent(figures.rainProbability ?? 0, reader.locale),
      };
      parts.push(label ? t("briefing.rainZoned", { ...values, zone: label }) : t("briefing.rain", values));
    } else {
      parts.push(t("briefing.dry"));
    }
    if ((figures.maxGusts ?? 0) >= NOTEWORTHY_GUSTS_KMH)
      parts.push(t("briefing.gusts", { gusts: formatWindSpeed(figures.maxGusts!, reader) }));
    return `${parts.join(", ")}.`;
  });
  return { title, body: lines.join("\n") };
}

/** How much of a warning's description and instruction a message tells (the service's page has the rest). */
export const WARNING_DESCRIPTION_CHARS = 800;
export const WARNING_INSTRUCTION_CHARS = 400;

/** The text cut at a word boundary near `most` characters, with an ellipsis when cut. */
function shortened(text: string, most: number): string {
  const plain = text.replace(/\s+/g, " ").trim();
  if (plain.length <= most) return plain;
  const cut = plain.slice(0, most);
  const space = cut.lastIndexOf(" ");
  return `${(space > most * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** An instant of a warning, in its first place's zone, named when the reader's clock differs ("Tue 21:00 GMT-6"). */
function warningTime(iso: string, zone: string, reader: MessageReader, t: MessageTexts): string {
  const instant = new Date(iso);
  const time = dayAndClock(instant, zone, reader);
  const label = zoneLabel(instant, zone, reader);
  return label ? t("warning.zoned", { time, zone: label }) : time;
}

/**
 * An official warning: "Severe weather warning: Tornado Watch — Mobile" / "US National Weather
 * Service: Tornado Watch for Mobile until Tue 18:00 (extreme, future)." then the service's
 * headline, description and instruction in the reader's language where it wrote one.
 */
function formatWarning(content: MessageContent, reader: MessageReader, t: MessageTexts) {
  const warning: WarningContent = content.warning!;
  const text = pickWarningText(warning.texts, reader.locale);
  const event = text?.event || t("warning.unnamed");
  const places = listOf(
    warning.places.map((place) => place.label),
    reader.locale,
  );
  const zone = warning.places[0]?.timeZone ?? content.place?.timeZone ?? reader.timeZone;
  const severe = warning.severity === "EXTREME" || warning.severity === "SEVERE";
  const titleKey =
    warning.change === "CLEARED"
      ? "warning.titleCleared"
      : warning.change === "UPDATED"
        ? "warning.titleUpdated"
        : severe
          ? "warning.titleSevere"
          : "warning.title";
  const title = t(titleKey, { event, places });
  if (warning.change === "CLEARED") return { title, body: t("warning.cleared", { service: warning.service, event, places }) };

  const parts = [t("warning.lead", { service: warning.service, event, places })];
  // The onset is told when it is still ahead of the message (a warning in force from its sending says only its end).
  const onsetAhead = warning.onset && (!warning.sent || Date.parse(warning.onset) > Date.parse(warning.sent));
  if (onsetAhead && warning.expires)
    parts.push(
      t("warning.fromUntil", { from: warningTime(warning.onset!, zone, reader, t), until: warningTime(warning.expires, zone, reader, t) }),
    );
  else if (onsetAhead) parts.push(t("warning.from", { from: warningTime(warning.onset!, zone, reader, t) }));
  else if (warning.expires) parts.push(t("warning.until", { until: warningTime(warning.expires, zone, reader, t) }));
  const rating = [
    warning.severity === "UNKNOWN" ? null : t(`warningSeverity.${warning.severity}`),
    warning.urgency === "UNKNOWN" ? null : t(`warningUrgency.${warning.urgency}`),
  ].filter((word): word is string => word !== null);
  if (rating.length > 0) parts.push(t("warning.rating", { rating: rating.join(", ") }));
  const lines = [`${parts.join(" ")}.`];
  if (text?.headline && text.headline.trim() !== event.trim()) lines.push(shortened(text.headline, WARNING_INSTRUCTION_CHARS));
  if (text?.description) lines.push(shortened(text.description, WARNING_DESCRIPTION_CHARS));
  if (text?.instruction) lines.push(shortened(text.instruction, WARNING_INSTRUCTION_CHARS));
  if (warning.area) lines.push(t("warning.area", { area: shortened(warning.area, WARNING_INSTRUCTION_CHARS) }));
  return { title, body: lines.join("\n") };
}

/**
 * A message's title and body from its content, for one reader as they are now: their
 * language (through `t`), units, 12- or 24-hour clock; times in the place's zone, named when
 * the reader's clock would show other times. Pure: the browser's inbox and the server
 * (GraphQL's title and body, Web Push) format the same content alike.
 */
export function formatMessage(content: MessageContent, reader: MessageReader, t: MessageTexts): { title: string; body: string } {
  switch (content.kind) {
    case "ALERT":
      return formatAlert(content, reader, t);
    case "ALL_CLEAR": {
      const place = content.place!.label;
      return {
        title: t("alert.allClearTitle", { place }),
        body: t("alert.allClearBody", { rule: content.ruleName ?? "", place }),
      };
    }
    case "BRIEFING":
      return formatBriefing(content, reader, t);
    case "WARNING":
      return formatWarning(content, reader, t);
    case "SYSTEM":
      return { title: "", body: "" };
  }
}
