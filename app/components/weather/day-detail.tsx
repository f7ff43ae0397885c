import { useEffect, useRef } from "react";
import { usePageTranslation } from "~/lib/i18n/use-page-translation";
import type { TFunction } from "i18next";
import { Link } from "react-router";
import { useQuery } from "urql";
import { useDisplaySettings, type DisplaySettings } from "~/lib/display-settings";
import type { DayDetailTarget } from "~/lib/day-detail-link";
import { placeHref } from "~/lib/open-place";
import { PLACE_DAY_QUERY } from "~/lib/graphql/later-documents";
import type { PlaceDayQuery } from "~/lib/graphql/documents.generated";
import { formatDegrees, formatHour, formatPercent, formatPrecipitation, formatTemperature, formatWindSpeed } from "~/shared/units";
import { ConditionIcon } from "./condition-icon";

type Hour = NonNullable<PlaceDayQuery["place"]>["weather"]["hourlyOn"][number];

const CHART = { width: 480, height: 180, left: 44, right: 40, top: 12, bottom: 28 } as const;

/** Temperature (left axis, the reader's unit) and chance of rain (bars, right axis, %) over one day. */
function DayChart({ hours, timeZone, settings, t }: { hours: Hour[]; timeZone: string; settings: DisplaySettings; t: TFunction }) {
  const plotWidth = CHART.width - CHART.left - CHART.right;
  const plotHeight = CHART.height - CHART.top - CHART.bottom;
  const temperatures = hours.map((hour) => hour.temperature);
  const low = Math.floor(Math.min(...temperatures));
  const high = Math.max(low + 1, Math.ceil(Math.max(...temperatures)));
  const step = plotWidth / hours.length;
  const x = (i: number) => CHART.left + i * step + step / 2;
  const y = (temperature: number) => CHART.top + (1 - (temperature - low) / (high - low)) * plotHeight;
  const line = hours.map((hour, i) => `${x(i).toFixed(1)},${y(hour.temperature).toFixed(1)}`).join(" ");
  const bottom = CHART.top + plotHeight;
  return (
    <svg
      viewBox={`0 0 ${CHART.width} ${CHART.height}`}
      className="h-auto w-full text-default"
      role="img"
      aria-label={t("dayDetail.chart", { low: formatDegrees(low, settings), high: formatDegrees(high, settings) })}
    >
      {hours.map((hour, i) => {
        const height = (hour.precipitationProbability / 100) * plotHeight;
        return (
          <rect key={hour.time} x={x(i) - step * 0.3} y={bottom - height} width={step * 0.6} height={height} className="fill-sky-500/40" />
        );
      })}
      <polyline points={line} fill="none" stroke="currentColor" strokeWidth="2" className="text-primary-strong" />
      <g className="fill-current text-[10px]" fontSize="10">
        <line x1={CHART.left} x2={CHART.left} y1={CHART.top} y2={bottom} stroke="currentColor" strokeOpacity="0.4" />
        <line x1={CHART.left} x2={CHART.width - CHART.right} y1={bottom} y2={bottom} stroke="currentColor" strokeOpacity="0.4" />
        <text x={CHART.left - 6} y={y(high) + 4} textAnchor="end">
          {formatDegrees(high, settings)}
        </text>
        <text x={CHART.left - 6} y={y(low) + 4} textAnchor="end">
          {formatDegrees(low, settings)}
        </text>
        <text x={CHART.width - CHART.right + 6} y={CHART.top + 4}>
          {formatPercent(100, settings.locale)}
        </text>
        <text x={CHART.width - CHART.right + 6} y={bottom + 4}>
          {formatPercent(0, settings.locale)}
        </text>
        {hours.map((hour, i) =>
          i % 3 === 0 ? (
            <text key={hour.time} x={x(i)} y={CHART.height - 8} textAnchor="middle">
              {formatHour(new Date(hour.time), settings.locale, timeZone, settings.hour12)}
            </text>
          ) : null,
        )}
      </g>
    </svg>
  );
}

/**
 * One day of a saved place, hour by hour: a chart and a table. Opened from a day of a card,
 * by an address of its own (`/?place=…&day=…`), so it survives a reload and can be shared
 * between one's own devices.
 */
export function DayDetail({ target }: { target: DayDetailTarget }) {
  const { t } = usePageTranslation();
  const settings = useDisplaySettings();
  const [result] = useQuery({ query: PLACE_DAY_QUERY, variables: { id: target.placeId, date: target.date } });
  const heading = useRef<HTMLHeadingElement>(null);
  // Opened from a card: the reader's focus goes to what opened.
  useEffect(() => heading.current?.focus({ preventScroll: false }), [target.placeId, target.date]);
  const place = result.data?.place;
  const hours = place?.weather.hourlyOn ?? [];
  const date = new Intl.DateTimeFormat(settings.locale, { weekday: "long", day: "numeric", month: "long", timeZone: "UTC" }).format(
    new Date(`${target.date}T12:00:00Z`),
  );
  return (
    <section aria-labelledby="day-detail-heading" className="card flex min-w-0 flex-col gap-4" data-testid="day-detail">
      <div className="flex items-start justify-between gap-3">
        <h2 id="day-detail-heading" ref={heading} tabIndex={-1} className="text-xl font-semibold outline-none">
          {place ? t("dayDetail.title", { date, place: place.label }) : date}
        </h2>
        <Link to={placeHref(target.placeId)} className="button-secondary shrink-0" preventScrollReset>
          {t("dayDetail.close")}
        </Link>
      </div>
      {!place && result.fetching ? (
        <div className="h-48 animate-pulse rounded bg-accented" role="status" aria-label={t("loading.label")} />
      ) : null}
      {!place && !result.fetching ? <p className="text-muted">{t("dayDetail.notFound")}</p> : null}
      {place && hours.length === 0 ? <p className="text-muted">{t("dayDetail.noHours")}</p> : null}
      {place && hours.length > 0 ? (
        <>
          <DayChart hours={hours} timeZone={place.weather.timeZone} settings={settings} t={t} />
          <p className="-mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted" data-testid="day-legend">
            <span className="inline-flex items-center gap-2">
              <span className="inline-block h-0.5 w-4 bg-primary-strong" aria-hidden="true" />
              {t("dayDetail.legendTemperature")}
            </span>
            <span className="inline-flex items-center gap-2">
              <span className="inline-block size-3 bg-sky-500/40" aria-hidden="true" />
              {t("dayDetail.legendRain")}
            </span>
          </p>
          <div className="overflow-x-auto" tabIndex={0} role="group" aria-label={t("dayDetail.tableLabel")}>
            <table className="w-full whitespace-nowrap text-left text-sm tabular-nums">
              <caption className="sr-only">{t("dayDetail.tableLabel")}</caption>
              <thead className="text-muted">
                <tr>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    {t("dayDetail.time")}
                  </th>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    {t("dayDetail.conditions")}
                  </th>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    {t("dayDetail.temperature")}
                  </th>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    {t("weather.feelsLike")}
                  </th>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    {t("dayDetail.chanceOfRain")}
                  </th>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    {t("weather.precipitation")}
                  </th>
                  <th scope="col" className="py-1 font-medium">
                    {t("weather.wind")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {hours.map((hour) => (
                  <tr key={hour.time} className="border-t border-default">
                    <th scope="row" className="py-1 pr-3 font-medium">
                      {formatHour(new Date(hour.time), settings.locale, place.weather.timeZone, settings.hour12)}
                    </th>
                    <td className="py-1 pr-3">
                      <span className="inline-flex items-center gap-2">
                        <ConditionIcon condition={hour.condition} isDay={hour.isDay} size={20} />
                        {t(`weather.condition.${hour.condition}`)}
                      </span>
                    </td>
                    <td className="py-1 pr-3">{formatTemperature(hour.temperature, settings)}</td>
                    <td className="py-1 pr-3">{formatTemperature(hour.apparentTemperature, settings)}</td>
                    <td className="py-1 pr-3">{formatPercent(hour.precipitationProbability, settings.locale)}</td>
                    <td className="py-1 pr-3">{formatPrecipitation(hour.precipitation, settings)}</td>
                    <td className="py-1">{formatWindSpeed(hour.windSpeed, settings)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </section>
  );
}
