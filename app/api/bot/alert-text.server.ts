import { airQualityScale } from "../../shared/air-quality";
import { conditionOf } from "../weather/forecast";
import type { AlertMetric, Comparator } from "../../shared/schema-enums.generated";
import { contentVersionFor, type ContentPlace, type MessageContent } from "../../shared/message-content";
import type { Match } from "./alert-evaluator";
import { wordFor, type ReaderSettings } from "./message-words.server";

type RuleSummary = { name: string; metric: AlertMetric | string; comparator: Comparator | string; threshold: number | null };
type PlaceSummary = { id: string; label: string; time_zone: string };

const iso = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString();
const contentPlace = (place: PlaceSummary): ContentPlace => ({ id: place.id, label: place.label, timeZone: place.time_zone });
/** The AQI scale a rule's owner reads now, from their settings row (their units decide it, see airQualityScale). */
export const ownerAqiScale = (settings: Pick<ReaderSettings, "temperature_unit">) =>
  airQualityScale({ temperatureUnit: settings.temperature_unit });

/** What the rule watches; for an AQI rule also the scale its figures are on (the owner's now: alerts.server.ts's watchKey). */
const ruleParts = (rule: RuleSummary, settings: ReaderSettings) => ({
  ruleName: rule.name,
  metric: rule.metric as AlertMetric,
  comparator: rule.comparator as Comparator,
  threshold: rule.metric === "CONDITION" ? null : rule.threshold,
  aqiScale: rule.metric === "AQI" ? ownerAqiScale(settings) : null,
});

/**
 * An ALERT's content ("Gusts 68 km/h in Office from Wed 13:00 to 17:00, peak 15:00."), and its
 * text for the owner now (stored beside it, and what older readers of the row see).
 */
export function alertMessage(rule: RuleSummary, place: PlaceSummary, match: Match, settings: ReaderSettings) {
  const content: MessageContent = {
    version: contentVersionFor(rule.metric),
    kind: "ALERT",
    place: contentPlace(place),
    ...ruleParts(rule, settings),
    from: iso(match.from),
    to: iso(match.to),
    peakAt: iso(match.peakAt),
    peakValue: match.peakValue,
    condition: rule.metric === "CONDITION" ? conditionOf(match.peakValue) : null,
  };
  return { ...wordFor(content, settings), content };
}

export function allClearMessage(rule: RuleSummary, place: PlaceSummary, settings: ReaderSettings) {
  const content: MessageContent = {
    version: contentVersionFor(rule.metric),
    kind: "ALL_CLEAR",
    place: contentPlace(place),
    ...ruleParts(rule, settings),
  };
  return { ...wordFor(content, settings), content };
}
