import { lazy, Suspense, useId, useState } from "react";
import type { TFunction } from "i18next";
import { Link } from "react-router";
import { ConditionIcon } from "~/components/weather/condition-icon";
import { conditionNames } from "~/components/weather/condition-names";
import type { CardTranslation } from "~/components/weather/forecast-card";
import type { PlaceWarningsReport } from "~/components/weather/official-warning-types";
import type { DisplaySettings } from "~/lib/display-settings";
import type { PlaceRowFieldsFragment as PlaceSummary } from "~/lib/graphql/documents.generated";
import { placeHref } from "~/lib/open-place";
import { formatDegrees } from "~/shared/units";

// Rename, reorder and remove (with undo), as Settings does them: loaded on the first press of "Edit".
const ManagePlaces = lazy(() => import("~/components/settings/manage-places").then((module) => ({ default: module.ManagePlaces })));

/** How many of a place's official warnings are its own (not only somewhere in its country) and in force. */
function ownWarnings(report: PlaceWarningsReport | undefined, now: number): number {
  return report?.items.filter((item) => item.match !== "COUNTRY" && (item.expires === null || Date.parse(item.expires) > now)).length ?? 0;
}

/** A row: the label (and the place's own name under a label of the user's), now, today's range, a badge. */
function PlaceRow({
  place,
  open,
  warnings,
  alerting,
  settings,
  t,
  conditionName,
}: {
  place: PlaceSummary;
  open: boolean;
  warnings: number;
  alerting: boolean;
  settings: DisplaySettings;
  t: TFunction;
  conditionName: ReturnType<typeof conditionNames>;
}) {
  const { current } = place.weather;
  const [today] = place.weather.today;
  return (
    <li>
      <Link
        to={placeHref(place.id)}
        preventScrollReset
        aria-current={open ? "true" : undefined}
        className="place-row"
        data-place-row={place.id}
      >
        <span className="min-w-0 flex-1">
          <span className="block truncate font-medium" data-testid="place-label">
            {place.label}
          </span>
          {place.label !== place.name ? <span className="block truncate text-xs text-muted">{place.name}</span> : null}
          {warnings > 0 || alerting ? (
            <span className="mt-1 flex flex-wrap gap-1">
              {warnings > 0 ? <span className="place-badge place-badge-warning">{t("places.warnings", { count: warnings })}</span> : null}
              {alerting ? <span className="place-badge place-badge-alert">{t("places.alerting")}</span> : null}
            </span>
          ) : null}
        </span>
        <ConditionIcon condition={current.condition} isDay={current.isDay} size={28} />
        <span className="sr-only">{conditionName(current.condition)}</span>
        <span className="shrink-0 text-right tabular-nums">
          <span className="block text-xl font-semibold">{formatDegrees(current.temperature, settings)}</span>
          {today ? (
            <span className="block text-xs text-muted">
              <span aria-hidden="true">
                {formatDegrees(today.temperatureMax, settings)} / {formatDegrees(today.temperatureMin, settings)}
              </span>
              <span className="sr-only">
                {t("weather.minMax", {
                  min: formatDegrees(today.temperatureMin, settings),
                  max: formatDegrees(today.temperatureMax, settings),
                })}
              </span>
            </span>
          ) : null}
        </span>
      </Link>
    </li>
  );
}

/**
 * The place switcher: one small row per place that opens its full view (`/?place=ID`, a plain link, so it works
 * before hydration and without JavaScript), and "Edit" for renaming, reordering and removing them right here.
 */
export function PlaceSwitcher({
  places,
  openId,
  warnings,
  alerting,
  settings,
  now,
  translation,
}: {
  places: PlaceSummary[];
  openId: string | null;
  warnings?: ReadonlyMap<string, PlaceWarningsReport>;
  /** The places whose alert rules are triggered now. */
  alerting: ReadonlySet<string>;
  settings: DisplaySettings;
  now: number;
  translation: CardTranslation;
}) {
  const { t } = translation;
  const [editing, setEditing] = useState(false);
  const listId = useId();
  const conditionName = conditionNames(t);
  return (
    <nav aria-labelledby="switcher-heading" className="card flex flex-col gap-3 p-4" data-testid="place-switcher">
      <div className="flex items-center justify-between gap-2">
        <h2 id="switcher-heading" className="text-lg font-semibold">
          {t("places.all")}
        </h2>
        <button
          type="button"
          className="button-secondary"
          aria-expanded={editing}
          aria-controls={listId}
          onClick={() => setEditing(!editing)}
        >
          {editing ? t("places.doneEditing") : t("places.edit")}
        </button>
      </div>
      <div id={listId}>
        {editing ? (
          <Suspense fallback={<div className="h-40 animate-pulse rounded bg-accented" role="status" aria-label={t("loading.label")} />}>
            <ManagePlaces />
          </Suspense>
        ) : (
          <ol className="flex flex-col gap-1" data-testid="places">
            {places.map((place) => (
              <PlaceRow
                key={place.id}
                place={place}
                open={place.id === openId}
                warnings={ownWarnings(warnings?.get(place.id), now)}
                alerting={alerting.has(place.id)}
                settings={settings}
                t={t}
                conditionName={conditionName}
              />
            ))}
          </ol>
        )}
      </div>
    </nav>
  );
}
