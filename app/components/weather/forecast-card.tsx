import { lazy, Suspense, type ReactNode } from "react";
import type { TFunction } from "i18next";
import type { PageTranslation } from "~/lib/i18n/use-page-translation";
import { Link } from "react-router";
import { dayDetailHref } from "~/lib/day-detail-link";
import { summarizeNowcast } from "~/shared/nowcast";
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
import { conditionNames } from "./condition-names";
import { CurrentHeader } from "./current-header";
import { HourlyStrip, type HourlyView } from "./hourly-strip";
import { formatRelativeAge } from "~/lib/relative-age";

const HOURS_SHOWN = 24;

// Out of the first load: the server renders them into the page, the browser loads them while hydrating.
const AirQualityLine = lazy(() => import("./air-quality-line"));
const NowcastChart = lazy(() => import("./nowcast-chart"));

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

/** What useTranslation gives, taken once by the card's caller and handed down (one `useTranslation` per page part). */
export type CardTranslation = PageTranslation;

/** A figure of the conditions now; one the provider did not give is left out. */
function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-muted">{label}</dt>
      <dd className="tabular-nums">{children}</dd>
    </div>
  );
}

/** The figures under the header: wind, precipitation, UV and what the provider adds. */
function Figures({ current, settings, t }: { current: CurrentConditions; settings: DisplaySettings; t: TFunction }) {
  return (
    <dl className="mt-4 grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-4">
      <Figure label={t("weather.wind")}>
        {formatWindSpeed(current.windSpeed, settings)}
        {current.windDirection != null ? ` ${t(`weather.compass.${compassPoint(current.windDirection)}`)}` : null}
        <span className="text-muted">, {t("weather.gusts", { value: formatWindSpeed(current.windGusts, settings) })}</span>
      </Figure>
      <Figure label={t("weather.precipitation")}>{formatPrecipitation(current.precipitation, settings)}</Figure>
      <Figure label={t("weather.uvIndex")}>{formatUvIndex(current.uvIndex, settings.locale)}</Figure>
      {current.humidity != null ? <Figure label={t("weather.humidity")}>{formatPercent(current.humidity, settings.locale)}</Figure> : null}
      {current.dewPoint != null ? <Figure label={t("weather.dewPoint")}>{formatTemperature(current.dewPoint, settings)}</Figure> : null}
      {current.pressure != null ? <Figure label={t("weather.pressure")}>{formatPressure(current.pressure, settings)}</Figure> : null}
      {current.visibility != null ? (
        <Figure label={t("weather.visibility")}>{formatVisibility(current.visibility, settings)}</Figure>
      ) : null}
    </dl>
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

/**
 * A day's row: for a saved place, the whole row opens that day hour by hour (a row to tap, not a word to find). The
 * link's name is what it shows, with the place and "hour by hour" said after the day's name for a screen reader.
 */
function DayRow({
  placeId,
  date,
  label,
  after,
  children,
}: {
  placeId?: string;
  date: string;
  label: string;
  /** " in Home, hour by hour": the same for every day, formatted once by the list. */
  after: string;
  children: ReactNode;
}) {
  if (!placeId) return <li className="forecast-day">{children}</li>;
  return (
    <li>
      <Link to={dayDetailHref({ placeId, date })} className="forecast-day day-row">
        <span className="font-medium">
          {label}
          <span className="sr-only">{after}</span>
        </span>
        {children}
        <span aria-hidden="true" className="text-muted">
          ›
        </span>
      </Link>
    </li>
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
  const after = placeId ? t("dayDetail.openAfter", { place }) : "";
  return (
    <section aria-label={t("weather.nextDaysIn", { place })} className="mt-5">
      <h4 className="mb-2 text-sm font-medium text-muted">{t("weather.nextDays")}</h4>
      <ol className="flex flex-col text-sm">
        {days.map((day, i) => {
          // A date is a calendar day of the place: read at noon UTC, no zone moves it.
          const label = i === 0 ? t("weather.today") : formatWeekday(new Date(`${day.date}T12:00:00Z`), settings.locale, "UTC");
          return (
            <DayRow key={day.date} placeId={placeId} date={day.date} label={label} after={after}>
              {placeId ? null : <span className="font-medium">{label}</span>}
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
            </DayRow>
          );
        })}
      </ol>
    </section>
  );
}

/**
 * One place's weather: now (large, in one sentence), the next 24 hours and 7 days, in the user's units and the
 * place's time. The home page shows one place's card at a time (the place switcher), a visitor the place looked up.
 */
export function ForecastCard({
  title,
  subtitle,
  weather,
  actions,
  notice,
  placeId,
  settings,
  now,
  translation,
  hourlyView,
  onHourlyViewChange,
}: {
  title: string;
  /** The hourly view shown first, and where a choice of another goes (HourlyStrip). */
  hourlyView?: HourlyView;
  onHourlyViewChange?: (view: HourlyView) => void;
  /** A saved place's id: its days open their hour-by-hour detail. */
  placeId?: string;
  subtitle?: string;
  weather: WeatherReport;
  actions?: ReactNode;
  /** Under the title: a saved place's official warnings. */
  notice?: ReactNode;
  /** The reader's units and clock (useDisplaySettings), "now" (useNow) and texts (useTranslation), taken by the caller. */
  settings: DisplaySettings;
  now: number;
  translation: CardTranslation;
}) {
  const { t, i18n } = translation;
  const updated = t("weather.updated", { ago: formatRelativeAge(i18n.language, Date.parse(weather.fetchedAt), now) });
  return (
    <article className="card" aria-label={title} data-testid="forecast-card">
      <header className="mb-4 flex items-start justify-between gap-3">
        <div>
          <h3 className="text-lg font-semibold">{title}</h3>
          {subtitle ? <p className="text-sm text-muted">{subtitle}</p> : null}
        </div>
        {actions}
      </header>
      {notice}
      <CurrentHeader weather={weather} settings={settings} now={now} t={t} />
      <Figures current={weather.current} settings={settings} t={t} />
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
      <HourlyStrip
        place={title}
        hours={upcomingHours(weather.hourly, now)}
        timeZone={weather.timeZone}
        settings={settings}
        t={t}
        view={hourlyView}
        onViewChange={onHourlyViewChange}
      />
      <DailyList place={title} placeId={placeId} days={weather.daily} settings={settings} t={t} />
      <footer className="mt-4 flex flex-wrap justify-between gap-2 text-xs text-muted">
        <span data-testid="updated">{weather.stale ? `${t("weather.stale")} ${updated}` : updated}</span>
        <a href="https://open-meteo.com/" className="underline underline-offset-2" rel="noreferrer" target="_blank">
          {t("weather.credit")}
        </a>
      </footer>
    </article>
  );
}
