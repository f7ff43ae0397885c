import type { TFunction } from "i18next";
import type { DisplaySettings } from "~/lib/display-settings";
import type { WeatherFieldsFragment as WeatherReport } from "~/lib/graphql/documents.generated";
import type { Condition } from "~/shared/schema-enums.generated";
import { formatClock, formatDegrees, formatTemperature } from "~/shared/units";
import { weatherHeadline, type FallWord, type Headline } from "~/shared/weather-headline";
import { ConditionIcon, conditionSymbol } from "./condition-icon";

/** The header's colour family (app.css `.tone-*`, checked for contrast in both modes). */
export type Tone = "sun" | "night" | "cloud" | "rain" | "snow" | "storm";

const TONE_OF_SYMBOL: Record<string, Tone> = {
  sun: "sun",
  "sun-cloud": "sun",
  moon: "night",
  "moon-cloud": "night",
  cloud: "cloud",
  fog: "cloud",
  drizzle: "rain",
  rain: "rain",
  snow: "snow",
  storm: "storm",
};

/** The colour of what the sentence says, not of the hour's code: "Dry now" is not painted as rain. */
export function headlineTone(headline: Headline, condition: Condition, isDay: boolean): Tone {
  switch (headline.kind) {
    case "until":
    case "changesAt":
    case "throughout":
      return headline.word.kind === "condition" ? "storm" : headline.word.fall;
    case "dryNow":
      return "cloud";
    case "startsAt":
      if (headline.conditionWet) return "cloud";
  }
  return TONE_OF_SYMBOL[conditionSymbol(condition, isDay)] ?? "cloud";
}

function fallWord(word: FallWord, condition: Condition, t: TFunction): string {
  return word.kind === "condition" ? t(`weather.condition.${condition}`) : t(`weather.headline.fall.${word.fall}.${word.intensity}`);
}

/** The sentence itself: "Light rain, heavier from 14:20", "Overcast, rain from 09:45", "Dry for now". */
function headlineText(headline: Headline, condition: Condition, clock: (iso: string) => string, t: TFunction): string {
  switch (headline.kind) {
    case "condition":
      return t(`weather.condition.${condition}`);
    case "dryNow":
      return t("weather.headline.dryNow");
    case "startsAt":
      return headline.conditionWet
        ? t(`weather.headline.dryNowFrom.${headline.fall}`, { time: clock(headline.at) })
        : t(`weather.headline.from.${headline.fall}`, { condition: t(`weather.condition.${condition}`), time: clock(headline.at) });
    case "until":
      return t("weather.headline.until", { fall: fallWord(headline.word, condition, t), time: clock(headline.at) });
    case "changesAt":
      return t(`weather.headline.${headline.change}`, { fall: fallWord(headline.word, condition, t), time: clock(headline.at) });
    case "throughout":
      return t("weather.headline.throughout", { fall: fallWord(headline.word, condition, t) });
  }
}

/**
 * What the weather is, large: the temperature, one sentence that agrees with both the hour's condition and the
 * nowcast (app/shared/weather-headline.ts), what it feels like and today's range, on the condition's colour.
 */
export function CurrentHeader({
  weather,
  settings,
  now,
  t,
}: {
  weather: WeatherReport;
  settings: DisplaySettings;
  now: number;
  t: TFunction;
}) {
  const { current } = weather;
  const headline = weatherHeadline(current, weather.nowcast, now);
  const clock = (iso: string) => formatClock(new Date(iso), settings.locale, weather.timeZone, settings.hour12);
  const today = weather.daily[0];
  return (
    <div className={`weather-now tone-${headlineTone(headline, current.condition, current.isDay)}`} data-testid="weather-now">
      <ConditionIcon condition={current.condition} isDay={current.isDay} size={64} />
      <div className="min-w-0">
        <p className="text-5xl font-semibold tabular-nums" data-testid="current-temperature">
          {formatTemperature(current.temperature, settings)}
        </p>
        <p className="mt-1 text-xl font-semibold" data-testid="headline">
          {headlineText(headline, current.condition, clock, t)}
        </p>
        <p className="mt-1 text-sm tabular-nums">
          {t("weather.feelsLikeValue", { value: formatTemperature(current.apparentTemperature, settings) })}
          {today ? (
            <>
              {" · "}
              {t("weather.minMax", {
                min: formatDegrees(today.temperatureMin, settings),
                max: formatDegrees(today.temperatureMax, settings),
              })}
            </>
          ) : null}
        </p>
      </div>
    </div>
  );
}
