import type { BriefingPeriod } from "../../shared/schema-enums.generated";
import { conditionOf, type Forecast, type HourlyForecast } from "../weather/forecast";
import { botTexts, LOCALE_OF } from "./texts.server";
import { formatClock, formatPercent, formatTemperature, formatWindSpeed } from "../../shared/units";
import { addDays, zonedParts, zonedToInstant } from "./zoned-time";

export type ReaderSettings = {
  language: string;
  timeZone: string;
  hour12: boolean;
  temperatureUnit: string;
  windSpeedUnit: string;
  precipitationUnit: string;
};

/** The instants a briefing period covers, in the reader's time zone. */
export function periodWindow(period: BriefingPeriod, now: Date, timeZone: string): { from: Date; to: Date } {
  const today = zonedParts(now, timeZone).date;
  const midnight = (date: string) => zonedToInstant(date, "00:00", timeZone);
  switch (period) {
    case "TODAY":
      return { from: midnight(today), to: midnight(addDays(today, 1)) };
    case "REST_OF_TODAY":
      return { from: now, to: midnight(addDays(today, 1)) };
    case "TONIGHT":
      return { from: zonedToInstant(today, "18:00", timeZone), to: zonedToInstant(addDays(today, 1), "06:00", timeZone) };
    case "TOMORROW":
      return { from: midnight(addDays(today, 1)), to: midnight(addDays(today, 2)) };
    case "NEXT_3_DAYS":
      return { from: midnight(today), to: midnight(addDays(today, 3)) };
  }
}

/** The most significant condition of a stretch of hours (the highest WMO code wins). */
function dominantCode(hours: HourlyForecast[]): number {
  return hours.reduce((worst, hour) => Math.max(worst, hour.weatherCode), 0);
}

const RAIN_PROBABILITY = 50;
const NOTEWORTHY_GUSTS_KMH = 40;

/** One line for one place: condition, range, when rain starts, notable gusts. */
export function placeLine(placeLabel: string, forecast: Forecast | null, window: { from: Date; to: Date }, reader: ReaderSettings): string {
  const t = botTexts(reader.language);
  if (!forecast) return t("briefing.unavailable", { place: placeLabel });
  const from = window.from.getTime() / 1000;
  const to = window.to.getTime() / 1000;
  const hours = forecast.hourly.filter((hour) => hour.time >= from && hour.time < to);
  if (hours.length === 0) return t("briefing.unavailable", { place: placeLabel });
  const locale = LOCALE_OF[reader.language] ?? "en-US";
  const units = { ...reader, locale };
  const temperatures = hours.map((hour) => hour.temperature);
  const parts = [
    t("briefing.line", {
      place: placeLabel,
      condition: t(`condition.${conditionOf(dominantCode(hours))}`),
      min: formatTemperature(Math.min(...temperatures), units),
      max: formatTemperature(Math.max(...temperatures), units),
    }),
  ];
  const rainy = hours.filter((hour) => hour.precipitationProbability >= RAIN_PROBABILITY && hour.precipitation > 0.1);
  parts.push(
    rainy[0]
      ? t("briefing.rain", {
          from: formatClock(new Date(rainy[0].time * 1000), locale, reader.timeZone, reader.hour12),
          probability: formatPercent(Math.max(...rainy.map((hour) => hour.precipitationProbability)), locale),
        })
      : t("briefing.dry"),
  );
  const gusts = Math.max(...hours.map((hour) => hour.windGusts));
  if (gusts >= NOTEWORTHY_GUSTS_KMH) parts.push(t("briefing.gusts", { gusts: formatWindSpeed(gusts, units) }));
  return `${parts.join(", ")}.`;
}

export function briefingTitle(name: string, period: BriefingPeriod, reader: ReaderSettings): string {
  const t = botTexts(reader.language);
  return t("briefing.title", { name, period: t(`period.${period}`) });
}

export function emptyBriefingBody(reader: ReaderSettings): string {
  return botTexts(reader.language)("briefing.noPlaces");
}
