import { airQualityScale } from "../../shared/air-quality";
import { conditionOf } from "../weather/forecast";
import type { AirQualityScale, AlertMetric, Comparator } from "../../shared/schema-enums.generated";
import {
  alertWindow,
  contentVersionFor,
  MAX_ALERT_WINDOWS_PER_PLACE,
  type AlertPlaceWindows,
  type ContentPlace,
  type MessageContent,
} from "../../shared/message-content";
import type { Match } from "./alert-evaluator";
import { formatContent, type ReaderSettings } from "./message-text.server";
import { ruleName } from "./starter-names.server";

type RuleSummary = {
  name: string;
  metric: AlertMetric | string;
  comparator: Comparator | string;
  threshold: number | null;
  starter_key?: string | null;
  aqi_scale?: string | null;
};
type PlaceSummary = { id: string; label: string; time_zone: string };

const iso = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString();
const contentPlace = (place: PlaceSummary): ContentPlace => ({ id: place.id, label: place.label, timeZone: place.time_zone });
/** The AQI scale a rule's owner reads now, from their settings row (their units decide it, see airQualityScale). */
export const ownerAqiScale = (settings: Pick<ReaderSettings, "temperature_unit">) =>
  airQualityScale({ temperatureUnit: settings.temperature_unit });

/** What the rule watches; for an AQI rule also the scale its figures are on (the rule's own, decision 031). */
const ruleParts = (rule: RuleSummary, settings: ReaderSettings) => ({
  ruleName: ruleName({ name: rule.name, starter_key: rule.starter_key ?? null }, settings.language),
  metric: rule.metric as AlertMetric,
  comparator: rule.comparator as Comparator,
  threshold: rule.metric === "CONDITION" ? null : rule.threshold,
  aqiScale: rule.metric === "AQI" ? ((rule.aqi_scale as AirQualityScale | null | undefined) ?? null) : null,
});

/**
 * Windows in time order, at most `most` of them: while there are more, the two with the shortest
 * calm between them are told as one (each is still its own episode: only the text is coarser).
 */
export function fewestWindows(windows: readonly Pick<Match, "from" | "to">[], most: number): Array<{ from: number; to: number }> {
  const spans = windows.map(({ from, to }) => ({ from, to })).sort((a, b) => a.from - b.from);
  while (spans.length > most) {
    let closest = 0;
    for (let i = 1; i < spans.length - 1; i++)
      if (spans[i + 1]!.from - spans[i]!.to < spans[closest + 1]!.from - spans[closest]!.to) closest = i;
    spans.splice(closest, 2, { from: spans[closest]!.from, to: Math.max(spans[closest]!.to, spans[closest + 1]!.to) });
  }
  return spans;
}

/** What one alert tells at one place: the windows of this pass, in time order. */
export type PlaceMatches = { place: PlaceSummary; matches: readonly Match[] };

/**
 * An ALERT's content and its text for the owner now (stored beside it, and what older readers of
 * the row see): one window ("Gusts 68 km/h in Office from Wed 13:00 to 17:00, peak 15:00."), or
 * every window of the pass at each place ("Gusts 83 km/h in Reykjavík: Sat 03:00–05:00, Sun
 * 14:00–18:00; peak Sun 16:00."). Its window fields are the worst window's.
 */
export function alertMessage(rule: RuleSummary, told: readonly PlaceMatches[], settings: ReaderSettings) {
  const higherIsWorse = rule.metric === "CONDITION" || rule.metric === "RAIN_SOON" || rule.comparator === "AT_LEAST";
  let worst = { place: told[0]!.place, match: told[0]!.matches[0]! };
  for (const { place, matches } of told)
    for (const match of matches)
      if (higherIsWorse ? match.peakValue > worst.match.peakValue : match.peakValue < worst.match.peakValue) worst = { place, match };
  const alertPlaces: AlertPlaceWindows[] = told.map(({ place, matches }) => ({
    place: contentPlace(place),
    windows: fewestWindows(matches, MAX_ALERT_WINDOWS_PER_PLACE).map((window) => alertWindow(iso(window.from), iso(window.to))),
  }));
  const content: MessageContent = {
    version: contentVersionFor(rule.metric, alertPlaces),
    kind: "ALERT",
    place: contentPlace(worst.place),
    ...ruleParts(rule, settings),
    from: iso(worst.match.from),
    to: iso(worst.match.to),
    peakAt: iso(worst.match.peakAt),
    peakValue: worst.match.peakValue,
    condition: rule.metric === "CONDITION" ? conditionOf(worst.match.peakValue) : null,
    ...(alertPlaces.length > 1 || alertPlaces[0]!.windows.length > 1 ? { alertPlaces } : {}),
  };
  return { ...formatContent(content, settings), content, worst };
}

export function allClearMessage(rule: RuleSummary, place: PlaceSummary, settings: ReaderSettings) {
  const content: MessageContent = {
    version: contentVersionFor(rule.metric),
    kind: "ALL_CLEAR",
    place: contentPlace(place),
    ...ruleParts(rule, settings),
  };
  return { ...formatContent(content, settings), content };
}
