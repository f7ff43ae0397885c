import type { Condition } from "~/shared/schema-enums.generated";
import spriteUrl from "./condition-icons.svg?no-inline";

/*
 * One drawing per kind of weather, from one sprite file (condition-icons.svg) that the browser
 * fetches once and the worker caches for offline use: each icon in the page is a short <use>.
 * The icon is decorative: the condition's name is always written next to it.
 */

/** The sprite's symbol for a condition, by day or night (only a clear or partly clear sky shows which). */
export function conditionSymbol(condition: Condition, isDay: boolean): string {
  switch (condition) {
    case "CLEAR":
      return isDay ? "sun" : "moon";
    case "MAINLY_CLEAR":
    case "PARTLY_CLOUDY":
      return isDay ? "sun-cloud" : "moon-cloud";
    case "FOG":
      return "fog";
    case "DRIZZLE":
    case "FREEZING_DRIZZLE":
      return "drizzle";
    case "RAIN":
    case "FREEZING_RAIN":
    case "RAIN_SHOWERS":
      return "rain";
    case "SNOW":
    case "SNOW_GRAINS":
    case "SNOW_SHOWERS":
      return "snow";
    case "THUNDERSTORM":
    case "THUNDERSTORM_WITH_HAIL":
      return "storm";
    default:
      return "cloud";
  }
}

export function ConditionIcon({ condition, isDay = true, size = 24 }: { condition: Condition; isDay?: boolean; size?: number }) {
  return (
    <svg width={size} height={size} aria-hidden="true" className="shrink-0">
      <use href={`${spriteUrl}#${conditionSymbol(condition, isDay)}`} />
    </svg>
  );
}
