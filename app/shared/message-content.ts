import type {
  AirQualityScale,
  AlertMetric,
  BriefingPeriod,
  Comparator,
  Condition,
  MessageKind,
  WarningChange,
  WarningSeverity,
  WarningUrgency,
} from "./schema-enums.generated";

/**
 * What a bot message says, as data: formatted only when read, in the reader's language, units,
 * clock and zone (message-format.ts). Stored as JSON in `messages.content` and served as
 * GraphQL's `Message.content`, in the same shape. Figures are in the API's units (°C, km/h,
 * mm, cm of snow); times are ISO instants. A message whose content is null (written before
 * content existed, or a SYSTEM message) is shown by its stored title and body.
 */
export const MESSAGE_CONTENT_VERSION = 4;

/** Metrics a version-1 reader cannot format: their messages are version 2, which such a reader leaves to the stored text. */
const SINCE_VERSION_2: ReadonlySet<string> = new Set<AlertMetric>(["RAIN_SOON", "AQI"]);

/**
 * The version to write a message's content as: the oldest whose readers format it, so a browser
 * still running an older build (a PWA kept open over a deploy) formats what it knows and shows the
 * stored title and body for the rest, rather than formatting a metric it has no texts for.
 */
export function contentVersionFor(
  metric: AlertMetric | string | null | undefined,
  alertPlaces?: readonly AlertPlaceWindows[] | null,
): number {
  // Several windows or places in one alert: version 3 (a version-2 reader formats one window).
  if (alertPlaces && (alertPlaces.length > 1 || alertPlaces.some((entry) => entry.windows.length > 1))) return 3;
  return metric && SINCE_VERSION_2.has(metric) ? 2 : 1;
}

/**
 * The version of every WARNING's content. A version-3 reader (the build before warnings) has no
 * texts for the kind and would fail on it: it shows the stored title and body instead.
 */
export const WARNING_CONTENT_VERSION = 4;

/** Whether this build formats content of that version (every version up to its own). */
export const formatsContentVersion = (version: number | null | undefined): boolean =>
  typeof version === "number" && version >= 1 && version <= MESSAGE_CONTENT_VERSION;

/** A place as it was named when the message was written: the message outlives a rename or removal. */
export type ContentPlace = { id: string; label: string; timeZone: string };

/**
 * One window of an alert: the start of its first hour and the end of its last, as an ISO-8601
 * interval ("2026-06-01T12:00:00.000Z/2026-06-01T15:00:00.000Z").
 */
export type AlertWindow = string;

export const alertWindow = (from: string, to: string): AlertWindow => `${from}/${to}`;

/** An alert window's start and end. */
export function windowBounds(window: AlertWindow): { from: Date; to: Date } {
  const [from, to] = window.split("/");
  return { from: new Date(from!), to: new Date(to!) };
}

/**
 * The most windows an alert lists for one place: more (a threshold crossed on and off for days) are
 * told as fewer, longer ones (alert-text.server.ts), so that an inbox page's size stays bounded.
 */
export const MAX_ALERT_WINDOWS_PER_PLACE = 12;

/** One place of an alert with every window told for it. */
export type AlertPlaceWindows = { place: ContentPlace; windows: AlertWindow[] };

/** One place of a briefing: null figures when no forecast was available for it. */
export type BriefingPlaceFigures = {
  place: ContentPlace;
  condition?: Condition | null;
  minTemperature?: number | null;
  maxTemperature?: number | null;
  /** The first rainy hour of the period, and the highest chance of rain in it; null when it stays dry. */
  rainFrom?: string | null;
  rainProbability?: number | null;
  maxGusts?: number | null;
};

/** One language's words of an official warning, as the service wrote them (a CAP `info` block). */
export type WarningContentText = {
  /** The block's language tag as the service gave it ("fr-FR", "en-GB"). */
  language: string;
  event: string;
  headline?: string | null;
  description?: string | null;
  instruction?: string | null;
};

/**
 * The most languages a warning's content keeps: the block each language of the app would read
 * (message-content's pickWarningText over the service's blocks), so a reader who switches
 * language gets what they would have got, and a feed of many languages costs no more.
 */
export const MAX_WARNING_TEXTS = 4;

/** An official warning as a WARNING message tells it (version 4). */
export type WarningContent = {
  /** Stable across the warning's updates and its end (the layer's id: service and CAP chain root). */
  warningId: string;
  change: WarningChange;
  /** The credit: "US National Weather Service", "MeteoAlarm / METEO-FRANCE". */
  service: string;
  severity: WarningSeverity;
  urgency: WarningUrgency;
  /** The service's names of the areas concerned. */
  area: string;
  /** ISO instants; null when the service leaves them out. */
  sent?: string | null;
  onset?: string | null;
  expires?: string | null;
  /** At most MAX_WARNING_TEXTS, in the service's order. */
  texts: WarningContentText[];
  /** The reader's places it concerns, in their order. */
  places: ContentPlace[];
  web?: string | null;
};

/**
 * The words a reader gets (as the warnings layer chooses a CAP block): their tag, else their
 * language ("de" for "de-AT"), else English, else the first.
 */
export function pickWarningText<T extends { language: string }>(texts: readonly T[], locale: string): T | undefined {
  const wanted = locale.toLowerCase();
  const primary = (tag: string) => tag.toLowerCase().split(/[-_]/)[0];
  return (
    texts.find((text) => text.language.toLowerCase() === wanted) ??
    texts.find((text) => primary(text.language) === primary(wanted)) ??
    texts.find((text) => primary(text.language) === "en") ??
    texts[0]
  );
}

/** One shape for every kind, with the parts a kind does not use left out (GraphQL: null). */
export type MessageContent = {
  version: number;
  kind: MessageKind;
  /** ALERT, ALL_CLEAR: the place, the rule's name and what it watches. */
  place?: ContentPlace | null;
  ruleName?: string | null;
  metric?: AlertMetric | null;
  comparator?: Comparator | null;
  threshold?: number | null;
  /** ALERT: the window (`to` is the end of its last hour), its peak; `condition` for CONDITION rules. */
  from?: string | null;
  to?: string | null;
  peakAt?: string | null;
  peakValue?: number | null;
  condition?: Condition | null;
  /**
   * ALERT (version 3): every window told in it, by place; `place` is the first of them and the window
   * fields above are its worst window's (what a version-2 reader would have said).
   */
  alertPlaces?: AlertPlaceWindows[] | null;
  /** ALERT, ALL_CLEAR of AQI rules: the scale its figures are on. */
  aqiScale?: AirQualityScale | null;
  /** BRIEFING: its name and period, and its figures per place in the briefing's order. */
  briefingName?: string | null;
  period?: BriefingPeriod | null;
  places?: BriefingPlaceFigures[] | null;
  /** WARNING (version 4): the official warning; `place` is the first of its places. */
  warning?: WarningContent | null;
};

/** The stored JSON's content, or null when there is none or it is of a version this code cannot format. */
export function parseMessageContent(json: string | null | undefined): MessageContent | null {
  if (!json) return null;
  try {
    const content = JSON.parse(json) as MessageContent;
    return content && formatsContentVersion(content.version) ? content : null;
  } catch {
    return null;
  }
}
