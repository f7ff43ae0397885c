import { Suspense, useId, useState, type ReactNode } from "react";
import type { i18n as I18n, TFunction } from "i18next";
import { Link } from "react-router";
import { dayDetailHref } from "~/lib/day-detail-link";
import { summarizeNowcast } from "~/shared/nowcast";
import type { Condition } from "~/shared/schema-enums.generated";
import type { WeatherFieldsFragment as WeatherReport } from "~/lib/graphql/documents.generated";

type CurrentConditions = WeatherReport["current"];
type HourlyForecast = WeatherReport["hourly"][number];
type DailyForecast = WeatherReport["daily"][number];
import type { DisplaySettings } from "~/lib/display-settings";
import {
  compassPoint,
  formatClock,
  formatDegrees,
  formatDuration,
  formatHour,
  formatPressure,
  formatVisibility,
  formatPercent,
  formatPrecipitation,
  formatTemperature,
  formatUvIndex,
  formatWindSpeed,
  formatWeekday,
} from "~/shared/units";
import { ConditionIcon } from "./condition-icon";
import { formatRelativeAge } from "~/lib/relative-age";
import { lazyServerRendered, onPage } from "~/lib/hydration-modules";

const HOURS_SHOWN = 24;

// Out of the first load: the server renders them into the page, the browser loads them before hydrating it.
const AirQualityLine = lazyServerRendered(
  () => import("./air-quality-line"),
  () => onPage("air-quality"),
);
const NowcastChart = lazyServerRendered(
  () => import("./nowcast-chart"),
  () => onPage("nowcast-chart"),
);

/** The air's line, or its skeleton while its code loads (a card rendered in the browser). */
function AirQuality({
  weather,
  settings,
  translation,
}: {
  weather: WeatherReport;
  settings: DisplaySettings;
  translation: CardTranslation;
}) {
  if (!weather.airQuality) return null;
  return (
    <Suspense
      fallback={
        <p className="h-4 animate-pulse rounded bg-accented" role="status" aria-label={translation.t("weather.airQuality.loading")} />
      }
    >
      <AirQualityLine report={weather.airQuality} settings={settings} i18n={translation.i18n} />
    </Suspense>
  );
}

/*
 * A card writes some eighty texts and a page holds up to ten cards: the list takes `t` once and
 * hands it down (react-i18next's useTranslation costs more than the card's own texts when every card
 * and air line asks), and the names of conditions repeated hour after hour are looked up once each.
 */

/** What useTranslation gives, taken once by the card's list. */
export type CardTranslation = { t: TFunction; i18n: I18n };

/** The condition's name, looked up once per card however many hours share it. */
function conditionNames(t: TFunction): (condition: Condition) => string {
  const names = new Map<Condition, string>();
  return (condition) => {
    let name = names.get(condition);
    if (name === undefined) names.set(condition, (name = t(`weather.condition.${condition}`)));
    return name;
  };
}

/** A figure of the conditions now; one the provider did not give is left out. */
function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-muted">{label}</dt>
      <dd className="tabular-nums">{children}</dd>
    </div>
  );
}

function Current({ current, settings, t }: { current: CurrentConditions; settings: DisplaySettings; t: TFunction }) {
  return (
    <div className="flex flex-wrap items-center gap-x-6 gap-y-3">
      <div className="flex items-center gap-3">
        <ConditionIcon condition={current.condition} isDay={current.isDay} size={56} />
        <div>
          <p className="text-4xl font-semibold tabular-nums" data-testid="current-temperature">
            {formatTemperature(current.temperature, settings)}
          </p>
          <p className="text-muted">{t(`weather.condition.${current.condition}`)}</p>
        </div>
      </div>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-4">
        <Figure label={t("weather.feelsLike")}>{formatTemperature(current.apparentTemperature, settings)}</Figure>
        <Figure label={t("weather.wind")}>
          {formatWindSpeed(current.windSpeed, settings)}
          {current.windDirection != null ? ` ${t(`weather.compass.${compassPoint(current.windDirection)}`)}` : null}
          <span className="text-muted">, {t("weather.gusts", { value: formatWindSpeed(current.windGusts, settings) })}</span>
        </Figure>
        <Figure label={t("weather.precipitation")}>{formatPrecipitation(current.precipitation, settings)}</Figure>
        <Figure label={t("weather.uvIndex")}>{formatUvIndex(current.uvIndex, settings.locale)}</Figure>
        {current.humidity != null ? (
          <Figure label={t("weather.humidity")}>{formatPercent(current.humidity, settings.locale)}</Figure>
        ) : null}
        {current.dewPoint != null ? <Figure label={t("weather.dewPoint")}>{formatTemperature(current.dewPoint, settings)}</Figure> : null}
        {current.pressure != null ? <Figure label={t("weather.pressure")}>{formatPressure(current.pressure, settings)}</Figure> : null}
        {current.visibility != null ? (
          <Figure label={t("weather.visibility")}>{formatVisibility(current.visibility, settings)}</Figure>
        ) : null}
      </dl>
    </div>
  );
}

type QuarterHour = WeatherReport["nowcast"][number];

/** "Rain starting in about 20 min", "No rain for the next 2 hours": the next 2 hours in one line. */
function NowcastLine({ steps, now, t }: { steps: QuarterHour[]; now: number; t: TFunction }) {
  const summary = summarizeNowcast(steps, now);
  if (summary.kind === "unknown") return null;
  return (
    <p className="text-sm" data-testid="nowcast">
      {summary.kind === "dry" || summary.kind === "continuing"
        ? t(`weather.nowcast.${summary.kind}`)
        : t(`weather.nowcast.${summary.kind}`, { minutes: summary.minutes })}
    </p>
  );
}

/** Today's sunrise and sunset in the place's time, and the length of its daylight. */
function Sun({
  day,
  timeZone,
  settings,
  t,
}: {
  day: DailyForecast | undefined;
  timeZone: string;
  settings: DisplaySettings;
  t: TFunction;
}) {
  if (!day) return null;
  const clock = (iso: string) => formatClock(new Date(iso), settings.locale, timeZone, settings.hour12);
  return (
    <p className="mt-4 flex flex-wrap gap-x-4 gap-y-1 text-sm" data-testid="sun">
      <span>{t("weather.sunrise", { time: clock(day.sunrise) })}</span>
      <span>{t("weather.sunset", { time: clock(day.sunset) })}</span>
      {day.daylightDuration != null ? (
        <span className="text-muted">{t("weather.daylight", { duration: formatDuration(day.daylightDuration, settings.locale) })}</span>
      ) : null}
    </p>
  );
}

/** The hours from the one now running, in the place's time zone. */
function upcomingHours(hourly: HourlyForecast[], now: number): HourlyForecast[] {
  const hourStart = Math.floor(now / 3_600_000) * 3_600_000;
  return hourly.filter((hour) => Date.parse(hour.time) >= hourStart).slice(0, HOURS_SHOWN);
}

const CHART_STEP = 10;

/**
 * The strip's chart: a temperature line over one path of chance-of-rain bars, 28 units at 100 % (the page draws 24
 * of them per card).
 */
function chartOf(hours: HourlyForecast[]) {
  const temperatures = hours.map((hour) => hour.temperature);
  const low = Math.min(...temperatures);
  const span = Math.max(1, Math.max(...temperatures) - low);
  const step = CHART_STEP;
  const y = (temperature: number) => 4 + (1 - (temperature - low) / span) * 24;
  const line = hours.map((hour, i) => `${i * step + step / 2},${y(hour.temperature).toFixed(1)}`).join(" ");
  const bars = hours
    .map((hour, i) => {
      const height = Number(((hour.precipitationProbability / 100) * 28).toFixed(2));
      return `M${i * step + 2} ${Number((32 - height).toFixed(2))}h${step - 4}v${height}h${4 - step}z`;
    })
    .join("");
  return { line, bars };
}

/** Each hour's clock, temperature and chance of rain as the reader reads them. */
function hourTextsOf(hours: HourlyForecast[], settings: DisplaySettings, timeZone: string) {
  return hours.map((hour) => ({
    clock: formatHour(new Date(hour.time), settings.locale, timeZone, settings.hour12),
    degrees: formatDegrees(hour.temperature, settings),
    rain: formatPercent(hour.precipitationProbability, settings.locale),
  }));
}

/** A strip of hours: a temperature line over chance-of-rain bars, with the hour, icon and value under each. */
function HourlyStrip({
  place,
  hours,
  timeZone,
  settings,
  t,
}: {
  place: string;
  hours: HourlyForecast[];
  timeZone: string;
  settings: DisplaySettings;
  t: TFunction;
}) {
  if (hours.length === 0) return null;
  const conditionName = conditionNames(t);
  const chanceOfRain = t("weather.chanceOfRain", { value: "" });
  const { line, bars } = chartOf(hours);
  const texts = hourTextsOf(hours, settings, timeZone);
  return (
    // Every card has this landmark: the place's name tells them apart.
    <section aria-label={t("weather.nextHoursIn", { place })} className="mt-5">
      <h4 className="mb-2 text-sm font-medium text-muted">{t("weather.nextHours")}</h4>
      {/* Scrolls sideways on small screens: focusable, so the keyboard can scroll it too. */}
      <div
        className="-mx-2 overflow-x-auto rounded px-2 pb-2 focus-visible:outline-2 focus-visible:outline-focus"
        tabIndex={0}
        role="group"
        aria-label={t("weather.nextHours")}
      >
        <div className="relative" style={{ width: `${hours.length * 3}rem` }}>
          <svg
            viewBox={`0 0 ${hours.length * CHART_STEP} 32`}
            preserveAspectRatio="none"
            className="h-10 w-full text-primary"
            role="img"
            aria-label={t("weather.hourlyChart")}
          >
            <path d={bars} className="fill-sky-500/30" />
            <polyline points={line} fill="none" stroke="currentColor" strokeWidth="1.5" vectorEffect="non-scaling-stroke" />
          </svg>
          <ol className="grid text-center text-xs" style={{ gridTemplateColumns: `repeat(${hours.length}, 3rem)` }}>
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

/** A day's name; for a saved place, a link to that day hour by hour. */
function DayLabel({ placeId, date, place, label, t }: { placeId?: string; date: string; place: string; label: string; t: TFunction }) {
  if (!placeId) return <span className="font-medium">{label}</span>;
  return (
    <Link to={dayDetailHref({ placeId, date })} className="link" aria-label={t("dayDetail.open", { day: label, place })}>
      {label}
    </Link>
  );
}

function DailyList({
  place,
  placeId,
  days,
  settings,
  t,
}: {
  place: string;
  placeId?: string;
  days: DailyForecast[];
  settings: DisplaySettings;
  t: TFunction;
}) {
  if (days.length === 0) return null;
  const conditionName = conditionNames(t);
  const low = Math.min(...days.map((day) => day.temperatureMin));
  const span = Math.max(1, Math.max(...days.map((day) => day.temperatureMax)) - low);
  return (
    <section aria-label={t("weather.nextDaysIn", { place })} className="mt-5">
      <h4 className="mb-2 text-sm font-medium text-muted">{t("weather.nextDays")}</h4>
      <ol className="flex flex-col gap-1 text-sm">
        {days.map((day, i) => (
          <li key={day.date} className="forecast-day">
            <DayLabel
              placeId={placeId}
              date={day.date}
              place={place}
              // A date is a calendar day of the place: read at noon UTC, no zone moves it.
              label={i === 0 ? t("weather.today") : formatWeekday(new Date(`${day.date}T12:00:00Z`), settings.locale, "UTC")}
              t={t}
            />
            <ConditionIcon condition={day.condition} size={20} />
            <span
              className="forecast-rain"
              title={t("weather.chanceOfRain", { value: formatPercent(day.precipitationProbabilityMax, settings.locale) })}
            >
              <span className="sr-only">{conditionName(day.condition)}, </span>
              {formatPercent(day.precipitationProbabilityMax, settings.locale)}
            </span>
            <span className="text-right tabular-nums text-muted">{formatDegrees(day.temperatureMin, settings)}</span>
            <span className="relative h-1.5 rounded-full bg-accented" aria-hidden="true">
              <span
                className="absolute inset-y-0 rounded-full bg-gradient-to-r from-sky-400 to-amber-400"
                style={{
                  left: `${((day.temperatureMin - low) / span) * 100}%`,
                  right: `${100 - ((day.temperatureMax - low) / span) * 100}%`,
                }}
              />
            </span>
            <span className="tabular-nums">{formatDegrees(day.temperatureMax, settings)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** The first look of a compact card: now, and today's range and chance of rain. */
function Summary({
  weather,
  settings,
  now,
  translation,
}: {
  weather: WeatherReport;
  settings: DisplaySettings;
  now: number;
  translation: CardTranslation;
}) {
  const { t } = translation;
  const { current } = weather;
  const today = weather.daily[0];
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
      <ConditionIcon condition={current.condition} isDay={current.isDay} size={40} />
      <p className="text-3xl font-semibold tabular-nums" data-testid="current-temperature">
        {formatTemperature(current.temperature, settings)}
      </p>
      <div className="text-sm">
        <p>{t(`weather.condition.${current.condition}`)}</p>
        {today ? (
          <p className="text-muted tabular-nums">
            {t("weather.minMax", {
              min: formatDegrees(today.temperatureMin, settings),
              max: formatDegrees(today.temperatureMax, settings),
            })}
            {" · "}
            {t("weather.chanceOfRain", { value: formatPercent(today.precipitationProbabilityMax, settings.locale) })}
          </p>
        ) : null}
        <NowcastLine steps={weather.nowcast} now={now} t={t} />
      </div>
      <div className="w-full">
        <AirQuality weather={weather} settings={settings} translation={translation} />
      </div>
    </div>
  );
}

/**
 * One place's weather: now, the next 24 hours and 7 days, in the user's units and the place's
 * time. A `compact` card (one of many on a page) shows now and today until it is opened: a long
 * list stays easy to scan, and its page light to send.
 */
export function ForecastCard({
  title,
  subtitle,
  weather,
  actions,
  notice,
  compact = false,
  placeId,
  settings,
  now,
  translation,
}: {
  title: string;
  /** A saved place's id: its days link to their hour-by-hour detail. */
  placeId?: string;
  subtitle?: string;
  weather: WeatherReport;
  actions?: ReactNode;
  /** Under the title, open or compact: a saved place's official warnings. */
  notice?: ReactNode;
  compact?: boolean;
  /**
   * The reader's units and clock (useDisplaySettings), "now" (useNow) and texts (useTranslation): taken once by
   * the list, not by each card.
   */
  settings: DisplaySettings;
  now: number;
  translation: CardTranslation;
}) {
  const { t, i18n } = translation;
  const [open, setOpen] = useState(!compact);
  const contentId = useId();
  const updated = t("weather.updated", { ago: formatRelativeAge(i18n.language, Date.parse(weather.fetchedAt), now) });
  return (
    <article className="card" aria-label={title} data-testid="forecast-card">
      <header className={`${open ? "mb-4" : "mb-3"} flex items-start justify-between gap-3`}>
        <div>
          <h3 className="text-lg font-semibold">{title}</h3>
          {subtitle ? <p className="text-sm text-muted">{subtitle}</p> : null}
        </div>
        {actions}
        {compact ? (
          <button
            type="button"
            className="button-secondary shrink-0"
            aria-expanded={open}
            aria-controls={contentId}
            aria-label={t(open ? "weather.hideForecastFor" : "weather.showForecastFor", { place: title })}
            onClick={() => setOpen(!open)}
          >
            {t(open ? "weather.hideForecast" : "weather.showForecast")}
          </button>
        ) : null}
      </header>
      {notice}
      <div id={contentId}>
        {open ? (
          <>
            <Current current={weather.current} settings={settings} t={t} />
            <div className="mt-4 flex flex-wrap items-center gap-x-6 gap-y-2">
              <NowcastLine steps={weather.nowcast} now={now} t={t} />
              {/* Only when rain falls in the next 2 hours; nothing in its place meanwhile (the line says it). */}
              {weather.nowcast.some((step) => step.precipitation > 0) ? (
                <Suspense fallback={null}>
                  <NowcastChart steps={weather.nowcast} settings={settings} t={t} />
                </Suspense>
              ) : null}
            </div>
            <div className="mt-2">
              <AirQuality weather={weather} settings={settings} translation={translation} />
            </div>
            <Sun day={weather.daily[0]} timeZone={weather.timeZone} settings={settings} t={t} />
            <HourlyStrip place={title} hours={upcomingHours(weather.hourly, now)} timeZone={weather.timeZone} settings={settings} t={t} />
            <DailyList place={title} placeId={placeId} days={weather.daily} settings={settings} t={t} />
          </>
        ) : (
          <Summary weather={weather} settings={settings} now={now} translation={translation} />
        )}
      </div>
      <footer className="mt-4 flex flex-wrap justify-between gap-2 text-xs text-muted">
        <span data-testid="updated">{weather.stale ? `${t("weather.stale")} ${updated}` : updated}</span>
        <a href="https://open-meteo.com/" className="underline underline-offset-2" rel="noreferrer" target="_blank">
          {t("weather.credit")}
        </a>
      </footer>
    </article>
  );
}
