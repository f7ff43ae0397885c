import { useId } from "react";
import type { TFunction } from "i18next";
import type { DisplaySettings } from "~/lib/display-settings";
import type { WeatherFieldsFragment as WeatherReport } from "~/lib/graphql/documents.generated";
import { formatDegrees, formatHour, formatNumber, formatPercent, windUnit } from "~/shared/units";
import { turningPoints } from "./chart-turns";
import { ConditionIcon } from "./condition-icon";
import { conditionNames } from "./condition-names";

type HourlyForecast = WeatherReport["hourly"][number];

/** One hour's column, in CSS pixels: the charts draw in the same units, so their text is not stretched. */
const COLUMN = 48;
const CHART_HEIGHT = 64;
/** The hourly views, in their tabs' order; the first is shown without a choice (and without JavaScript). */
const VIEWS = ["temperature", "rain", "wind"] as const;
export type HourlyView = (typeof VIEWS)[number];

const middleOf = (i: number) => i * COLUMN + COLUMN / 2;

/** The temperature line, with its value written at each turn (a day's highs and lows) and at both ends. */
function TemperatureChart({ hours, settings, label }: { hours: HourlyForecast[]; settings: DisplaySettings; label: string }) {
  const temperatures = hours.map((hour) => hour.temperature);
  const low = Math.min(...temperatures);
  const span = Math.max(1, Math.max(...temperatures) - low);
  // Room above and below the line for the labels.
  const y = (temperature: number) => 16 + (1 - (temperature - low) / span) * (CHART_HEIGHT - 32);
  const line = hours.map((hour, i) => `${middleOf(i)},${y(hour.temperature).toFixed(1)}`).join(" ");
  return (
    <svg
      viewBox={`0 0 ${hours.length * COLUMN} ${CHART_HEIGHT}`}
      className="block h-16 w-full text-primary-strong"
      role="img"
      aria-label={label}
    >
      <polyline points={line} fill="none" stroke="currentColor" strokeWidth="2" />
      <g className="fill-current text-default" fontSize="11" textAnchor="middle" data-testid="temperature-turns">
        {turningPoints(temperatures).map((i) => {
          const value = temperatures[i]!;
          const previous = temperatures[i - 1] ?? temperatures[i + 1] ?? value;
          const next = temperatures[i + 1] ?? previous;
          // A low's label goes under the line, a high's (or a flat stretch's) above it.
          const isLow = value < previous || value < next;
          return (
            <text key={i} x={middleOf(i)} y={isLow ? y(value) + 14 : y(value) - 6}>
              {formatDegrees(value, settings)}
            </text>
          );
        })}
      </g>
    </svg>
  );
}

/** Chance of rain as bars, each with its value. */
function RainChart({ hours, settings, label }: { hours: HourlyForecast[]; settings: DisplaySettings; label: string }) {
  const bottom = CHART_HEIGHT - 2;
  const heightOf = (hour: HourlyForecast) => Number(((hour.precipitationProbability / 100) * (CHART_HEIGHT - 18)).toFixed(1));
  const bars = hours.map((hour, i) => `M${i * COLUMN + 10} ${bottom}h${COLUMN - 20}v${-heightOf(hour)}h${20 - COLUMN}z`).join("");
  return (
    <svg viewBox={`0 0 ${hours.length * COLUMN} ${CHART_HEIGHT}`} className="block h-16 w-full" role="img" aria-label={label}>
      {/* One path for all the bars: 24 shapes cost the page 24 elements. */}
      <path d={bars} className="fill-sky-500/60" />
      <g className="fill-current text-default" fontSize="11" textAnchor="middle">
        {hours.map((hour, i) =>
          hour.precipitationProbability >= 10 ? (
            <text key={hour.time} x={middleOf(i)} y={bottom - heightOf(hour) - 4}>
              {formatPercent(hour.precipitationProbability, settings.locale)}
            </text>
          ) : null,
        )}
      </g>
    </svg>
  );
}

/** Each hour's wind: an arrow the way it blows, its speed, and its gusts, in the reader's unit. */
function WindChart({ hours, settings, t }: { hours: HourlyForecast[]; settings: DisplaySettings; t: TFunction }) {
  const unit = windUnit(settings);
  const speed = (kmh: number) => formatNumber(kmh / unit.kmh, settings.locale);
  // Once for the strip, not once an hour: "G" before each hour's gusts (the key says what it means).
  const gust = t("weather.hourly.gustShort");
  return (
    <div className="grid text-center text-xs tabular-nums" style={{ gridTemplateColumns: `repeat(${hours.length}, ${COLUMN}px)` }}>
      {hours.map((hour) => (
        <div key={hour.time} className="flex h-16 flex-col items-center justify-center gap-0.5" data-testid="wind-hour">
          {hour.windDirection != null ? (
            // The provider gives where the wind comes from; the arrow points where it goes.
            <span
              aria-hidden="true"
              className="inline-block leading-none"
              style={{ transform: `rotate(${(hour.windDirection + 180) % 360}deg)` }}
              data-direction={hour.windDirection}
            >
              ↑
            </span>
          ) : null}
          <span className="font-medium">{speed(hour.windSpeed)}</span>
          <span className="text-muted">
            {gust} {speed(hour.windGusts)}
          </span>
        </div>
      ))}
    </div>
  );
}

/** Each hour's clock, temperature and chance of rain as the reader reads them. */
function hourTextsOf(hours: HourlyForecast[], settings: DisplaySettings, timeZone: string) {
  return hours.map((hour) => ({
    clock: formatHour(new Date(hour.time), settings.locale, timeZone, settings.hour12),
    degrees: formatDegrees(hour.temperature, settings),
    rain: formatPercent(hour.precipitationProbability, settings.locale),
  }));
}

/** What each view's key says: the line or bar it draws, and its unit. */
function Legend({ view, settings, t }: { view: (typeof VIEWS)[number]; settings: DisplaySettings; t: TFunction }) {
  if (view === "temperature") {
    return (
      <p className="hourly-legend" data-view="temperature">
        <span className="inline-block h-0.5 w-4 bg-primary-strong" aria-hidden="true" />
        {t("weather.hourly.legendTemperature", { unit: settings.temperatureUnit === "FAHRENHEIT" ? "°F" : "°C" })}
      </p>
    );
  }
  if (view === "rain") {
    return (
      <p className="hourly-legend" data-view="rain">
        <span className="inline-block size-3 bg-sky-500/60" aria-hidden="true" />
        {t("weather.hourly.legendRain")}
      </p>
    );
  }
  return (
    <p className="hourly-legend" data-view="wind">
      {t("weather.hourly.legendWind", { unit: windUnit(settings).label })}
    </p>
  );
}

/**
 * The next 24 hours: tabs for temperature, rain and wind over a strip of hours (clock, icon, temperature,
 * chance of rain). The tabs are radio buttons and CSS shows the chosen view (app.css `.hourly`): they work
 * before hydration and without JavaScript; a choice is only reported (`onViewChange`), for another place's
 * strip to start with it.
 */
export function HourlyStrip({
  place,
  hours,
  timeZone,
  settings,
  t,
  view: chosen = "temperature",
  onViewChange,
}: {
  place: string;
  hours: HourlyForecast[];
  timeZone: string;
  settings: DisplaySettings;
  t: TFunction;
  /** The view shown first: the one the person chose for the place before (the switcher keeps it from place to place). */
  view?: HourlyView;
  onViewChange?: (view: HourlyView) => void;
}) {
  const name = useId();
  if (hours.length === 0) return null;
  const conditionName = conditionNames(t);
  const chanceOfRain = t("weather.chanceOfRain", { value: "" });
  const texts = hourTextsOf(hours, settings, timeZone);
  const width = `${hours.length * COLUMN}px`;
  return (
    // Every card has this landmark: the place's name tells them apart.
    <section aria-label={t("weather.nextHoursIn", { place })} className="hourly mt-5">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h4 className="text-sm font-medium text-muted">{t("weather.nextHours")}</h4>
        <fieldset
          className="flex gap-1"
          onChange={(event) => {
            const input: EventTarget = event.target;
            if (input instanceof HTMLInputElement) onViewChange?.(input.value as HourlyView);
          }}
        >
          <legend className="sr-only">{t("weather.hourly.show")}</legend>
          {VIEWS.map((view) => (
            <label key={view} className="hourly-tab">
              <input type="radio" name={name} value={view} defaultChecked={view === chosen} className="sr-only" />
              {t(`weather.hourly.${view}`)}
            </label>
          ))}
        </fieldset>
      </div>
      {VIEWS.map((view) => (
        <Legend key={view} view={view} settings={settings} t={t} />
      ))}
      {/* Scrolls sideways on small screens: focusable, so the keyboard can scroll it too. */}
      <div
        className="-mx-2 overflow-x-auto rounded px-2 pb-2 focus-visible:outline-2 focus-visible:outline-focus"
        tabIndex={0}
        role="group"
        aria-label={t("weather.nextHours")}
        data-own-arrow-keys
      >
        {/* Positioned: the hours' screen-reader texts are placed within it, not beyond the scrolling strip. */}
        <div className="relative" style={{ width }}>
          <div className="hourly-view" data-view="temperature">
            <TemperatureChart hours={hours} settings={settings} label={t("weather.hourly.temperatureChart")} />
          </div>
          <div className="hourly-view" data-view="rain">
            <RainChart hours={hours} settings={settings} label={t("weather.hourly.rainChart")} />
          </div>
          <div className="hourly-view" data-view="wind">
            <WindChart hours={hours} settings={settings} t={t} />
          </div>
          <ol className="grid text-center text-xs" style={{ gridTemplateColumns: `repeat(${hours.length}, ${COLUMN}px)` }}>
            {hours.map((hour, i) => (
              <li key={hour.time} className="forecast-hour">
                <span className="text-muted">{texts[i]!.clock}</span>
                <ConditionIcon condition={hour.condition} isDay={hour.isDay} size={20} />
                <span className="sr-only">{conditionName(hour.condition)}</span>
                <span className="font-medium tabular-nums">{texts[i]!.degrees}</span>
                <span className="forecast-rain">
                  <span className="sr-only">{chanceOfRain}</span>
                  {texts[i]!.rain}
                </span>
              </li>
            ))}
          </ol>
        </div>
      </div>
    </section>
  );
}
