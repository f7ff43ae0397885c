import { conditionOf } from "../weather/forecast";
import type { AlertMetric } from "../../shared/schema-enums.generated";
import type { Match } from "./alert-evaluator";
import type { ReaderSettings } from "./briefing-text.server";
import { botTexts, LOCALE_OF } from "./texts.server";
import {
  formatClock,
  formatPercent,
  formatPrecipitation,
  formatTemperature,
  formatWeekday,
  formatWindSpeed,
  type UnitSettings,
} from "../../shared/units";
import { zonedParts } from "./zoned-time";

export function formatMetric(metric: AlertMetric, value: number, units: UnitSettings): string {
  switch (metric) {
    case "TEMPERATURE":
    case "APPARENT_TEMPERATURE":
      return formatTemperature(value, units);
    case "PRECIPITATION":
      return formatPrecipitation(value, units);
    case "SNOWFALL":
      return formatPrecipitation(value * 10, units); // cm of snow, shown like precipitation depth
    case "PRECIPITATION_PROBABILITY":
      return formatPercent(value, units.locale);
    case "WIND_SPEED":
    case "WIND_GUSTS":
      return formatWindSpeed(value, units);
    case "UV_INDEX":
    case "CONDITION":
      return String(Math.round(value));
  }
}

// One pass writes thousands of alerts about the same few hundred hours: each wording is made once.
const whenTexts = new Map<string, string>();
const WHEN_TEXTS_LIMIT = 20_000;

/** A time in the reader's zone, with the weekday when it is not today. */
function when(epochSeconds: number, now: Date, reader: ReaderSettings, locale: string): string {
  const today = zonedParts(now, reader.timeZone).date;
  const key = `${epochSeconds}|${reader.timeZone}|${locale}|${reader.hour12}|${today}`;
  let text = whenTexts.get(key);
  if (text === undefined) {
    const instant = new Date(epochSeconds * 1000);
    const clock = formatClock(instant, locale, reader.timeZone, reader.hour12);
    text = zonedParts(instant, reader.timeZone).date === today ? clock : `${formatWeekday(instant, locale, reader.timeZone)} ${clock}`;
    if (whenTexts.size >= WHEN_TEXTS_LIMIT) whenTexts.clear();
    whenTexts.set(key, text);
  }
  return text;
}

/** "Gusts 68 km/h in Office from 13:00 to 17:00, peak 15:00." in the reader's language and units. */
export function alertMessage(
  rule: { name: string; metric: AlertMetric },
  placeLabel: string,
  match: Match,
  reader: ReaderSettings,
  now: Date,
) {
  const t = botTexts(reader.language);
  const locale = LOCALE_OF[reader.language] ?? "en-US";
  const units = { ...reader, locale };
  const window = {
    place: placeLabel,
    from: when(match.from, now, reader, locale),
    to: when(match.to, now, reader, locale),
  };
  const body =
    rule.metric === "CONDITION"
      ? t("alert.conditionBody", { ...window, condition: t(`condition.${conditionOf(match.peakValue)}`) })
      : t("alert.body", {
          ...window,
          metric: t(`metric.${rule.metric}`),
          peak: formatMetric(rule.metric, match.peakValue, units),
          peakAt: when(match.peakAt, now, reader, locale),
        });
  // Conditions are written lower-case for use inside sentences; a body starts with a capital.
  return {
    title: t("alert.title", { rule: rule.name, place: placeLabel }),
    body: body.charAt(0).toLocaleUpperCase(locale) + body.slice(1),
  };
}

export function allClearMessage(rule: { name: string }, placeLabel: string, reader: ReaderSettings) {
  const t = botTexts(reader.language);
  return {
    title: t("alert.allClearTitle", { place: placeLabel }),
    body: t("alert.allClearBody", { rule: rule.name, place: placeLabel }),
  };
}
