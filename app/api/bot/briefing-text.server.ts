import type { BriefingPeriod } from "../../shared/schema-enums.generated";
import { conditionOf, type Forecast, type HourlyForecast } from "../weather/forecast";
import { contentVersionFor, type BriefingPlaceFigures, type MessageContent } from "../../shared/message-content";
import { addDays, zonedParts, zonedToInstant } from "./zoned-time";

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

/** One place's figures for the period: condition, range, when rain starts, the strongest gusts; none without a forecast. */
export function placeFigures(
  place: { id: string; label: string; time_zone: string },
  forecast: Forecast | null,
  window: { from: Date; to: Date },
): BriefingPlaceFigures {
  const figures: BriefingPlaceFigures = { place: { id: place.id, label: place.label, timeZone: place.time_zone } };
  if (!forecast) return figures;
  const from = window.from.getTime() / 1000;
  const to = window.to.getTime() / 1000;
  const hours = forecast.hourly.filter((hour) => hour.time >= from && hour.time < to);
  if (hours.length === 0) return figures;
  const temperatures = hours.map((hour) => hour.temperature);
  const rainy = hours.filter((hour) => hour.precipitationProbability >= RAIN_PROBABILITY && hour.precipitation > 0.1);
  return {
    ...figures,
    condition: conditionOf(dominantCode(hours)),
    minTemperature: Math.min(...temperatures),
    maxTemperature: Math.max(...temperatures),
    rainFrom: rainy[0] ? new Date(rainy[0].time * 1000).toISOString() : null,
    rainProbability: rainy[0] ? Math.max(...rainy.map((hour) => hour.precipitationProbability)) : null,
    maxGusts: Math.max(...hours.map((hour) => hour.windGusts)),
  };
}

/** A briefing's content: its name, period and figures per place, in the briefing's order. */
export function briefingContent(name: string, period: BriefingPeriod, places: BriefingPlaceFigures[]): MessageContent {
  return { version: contentVersionFor(null), kind: "BRIEFING", briefingName: name, period, places };
}
