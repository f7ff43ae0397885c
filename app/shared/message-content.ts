import type { AirQualityScale, AlertMetric, BriefingPeriod, Comparator, Condition, MessageKind } from "./schema-enums.generated";

/**
 * What a bot message says, as data: worded only when read, in the reader's language, units,
 * clock and zone (message-wording.ts). Stored as JSON in `messages.content` and served as
 * GraphQL's `Message.content`, in the same shape. Figures are in the API's units (°C, km/h,
 * mm, cm of snow); times are ISO instants. A message whose content is null (written before
 * content existed, or a SYSTEM message) is shown by its stored title and body.
 */
export const MESSAGE_CONTENT_VERSION = 2;

/** Metrics a version-1 reader cannot word: their messages are version 2, which such a reader leaves to the stored text. */
const SINCE_VERSION_2: ReadonlySet<string> = new Set<AlertMetric>(["RAIN_SOON", "AQI"]);

/**
 * The version to write a message's content as: the oldest whose readers word it, so a browser
 * still running an older build (a PWA kept open over a deploy) words what it knows and shows the
 * stored title and body for the rest, rather than wording a metric it has no texts for.
 */
export function contentVersionFor(metric: AlertMetric | string | null | undefined): number {
  return metric && SINCE_VERSION_2.has(metric) ? 2 : 1;
}

/** Whether this build words content of that version (every version up to its own). */
export const wordsContentVersion = (version: number | null | undefined): boolean =>
  typeof version === "number" && version >= 1 && version <= MESSAGE_CONTENT_VERSION;

/** A place as it was named when the message was written: the message outlives a rename or removal. */
export type ContentPlace = { id: string; label: string; timeZone: string };

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
  /** ALERT, ALL_CLEAR of AQI rules: the scale its figures are on. */
  aqiScale?: AirQualityScale | null;
  /** BRIEFING: its name and period, and its figures per place in the briefing's order. */
  briefingName?: string | null;
  period?: BriefingPeriod | null;
  places?: BriefingPlaceFigures[] | null;
};

/** The stored JSON's content, or null when there is none or it is of a version this code cannot word. */
export function parseMessageContent(json: string | null | undefined): MessageContent | null {
  if (!json) return null;
  try {
    const content = JSON.parse(json) as MessageContent;
    return content && wordsContentVersion(content.version) ? content : null;
  } catch {
    return null;
  }
}
