import { useEffect, useRef, type KeyboardEvent } from "react";
import { Link, useNavigate } from "react-router";
import { useQuery } from "urql";
import { ForecastCard, type CardTranslation } from "~/components/weather/forecast-card";
import type { HourlyView } from "~/components/weather/hourly-strip";
import type { PlaceWarningsReport } from "~/components/weather/official-warning-types";
import { OfficialWarnings } from "~/components/weather/official-warnings";
import type { DisplaySettings } from "~/lib/display-settings";
import { OPEN_PLACE_QUERY } from "~/lib/graphql/signed-in-documents";
import type { PlaceRowFieldsFragment as PlaceSummary } from "~/lib/graphql/documents.generated";
import { neighbourId, placeHref } from "~/lib/open-place";
import { placeCardId } from "~/lib/place-card-id";
import { placeSubtitle } from "~/lib/place-subtitle";
import { useSwipe } from "~/lib/swipe";

/** Keys that step between places, unless the focused control uses them itself (a field, the hours' strip, the chart tabs). */
function arrowStep(event: KeyboardEvent<HTMLElement>): 1 | -1 | 0 {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return 0;
  if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return 0;
  if ((event.target as HTMLElement).closest("input, textarea, select, [data-own-arrow-keys]")) return 0;
  return event.key === "ArrowRight" ? 1 : -1;
}

/** A neighbour's link in the pager, or an empty slot at an end (the position stays centred). */
function PagerLink({ to, side, label }: { to: PlaceSummary | undefined; side: "previous" | "next"; label: string }) {
  if (!to) return <span />;
  const name = <span className="truncate">{to.label}</span>;
  return (
    <Link
      to={placeHref(to.id)}
      replace
      preventScrollReset
      className={`pager-link ${side === "next" ? "justify-end" : ""}`}
      aria-label={label}
    >
      {side === "previous" ? (
        <>
          <span aria-hidden="true">‹</span> {name}
        </>
      ) : (
        <>
          {name} <span aria-hidden="true">›</span>
        </>
      )}
    </Link>
  );
}

type CardProps = {
  placeId: string;
  hourlyView?: HourlyView;
  onHourlyViewChange?: (view: HourlyView) => void;
  warnings?: PlaceWarningsReport;
  settings: DisplaySettings;
  now: number;
  translation: CardTranslation;
};

/**
 * One place's whole view, read by a query of its own: the caller mounts one per place (`key`), so a step to
 * another place mounts a new query instead of changing the variables of the one on screen. urql's `useQuery`
 * takes new variables with a state update during render, which React drops while the same hook holds an update
 * of lower priority (its first answers after a part hydrated in a pass of its own come at idle priority); each
 * render then asks again, and each answer asks for another render: the page froze (decision 018).
 */
function OpenPlaceCard({ placeId, warnings, settings, now, translation, hourlyView, onHourlyViewChange }: CardProps) {
  const { t, i18n } = translation;
  // The loader fetched it before this render (server, or the navigation that opened it).
  const [opened] = useQuery({ query: OPEN_PLACE_QUERY, variables: { id: placeId } });
  const place = opened.data?.place;
  // While it loads (after its place was removed and another took its turn).
  if (!place) return <div className="card h-96 animate-pulse" role="status" aria-label={t("loading.label")} />;
  return (
    <ForecastCard
      title={place.label}
      subtitle={placeSubtitle(place, i18n.language)}
      weather={place.weather}
      settings={settings}
      now={now}
      translation={translation}
      placeId={place.id}
      hourlyView={hourlyView}
      onHourlyViewChange={onHourlyViewChange}
      notice={
        warnings ? (
          <OfficialWarnings
            report={warnings}
            place={place.label}
            countryKnown={place.countryCode !== null}
            timeZone={place.timeZone}
            settings={settings}
            now={now}
            i18n={i18n}
          />
        ) : null
      }
    />
  );
}

/**
 * The one place shown whole, with the way to its neighbours: "previous" and "next" links (they work without
 * JavaScript), the arrow keys anywhere in it, and a swipe on a touch screen. Stepping replaces the address
 * rather than adding to the history, so Back leaves the page instead of walking back through the places.
 */
export function OpenPlace({ places, place, ...card }: Omit<CardProps, "placeId"> & { places: PlaceSummary[]; place: PlaceSummary }) {
  const { t } = card.translation;
  const navigate = useNavigate();
  const pager = useRef<HTMLElement>(null);
  const ids = places.map((other) => other.id);
  const index = ids.indexOf(place.id);
  const previous = places[index - 1];
  const next = places[index + 1];

  // A pager link that has no neighbour left goes away with the step: keep the keyboard in the pager.
  const keepFocus = useRef(false);
  useEffect(() => {
    if (!keepFocus.current) return;
    keepFocus.current = false;
    if (document.activeElement === document.body) pager.current?.querySelector<HTMLElement>("a")?.focus();
  }, [place.id]);

  // Keys pressed faster than a step renders step on from the place asked for last, not the one still shown.
  const asked = useRef(place.id);
  useEffect(() => {
    asked.current = place.id;
  }, [place.id]);

  // The hourly view chosen (rain, say) stays as the person steps from place to place: the next place's card starts
  // with it. A ref, not state: a choice re-renders nothing (the tabs show it by themselves, app.css).
  const hourlyView = useRef<HourlyView>("temperature");

  function step(offset: 1 | -1, fromKeyboard = false) {
    const id = neighbourId(ids, asked.current, offset);
    if (!id) return;
    asked.current = id;
    keepFocus.current = fromKeyboard;
    void navigate(placeHref(id), { replace: true, preventScrollReset: true });
  }
  const swipe = useSwipe(step);

  return (
    <div
      id={placeCardId(place.id)}
      className="flex scroll-mt-20 touch-pan-y flex-col gap-3"
      data-testid="open-place"
      onKeyDown={(event) => {
        const offset = arrowStep(event);
        if (!offset) return;
        event.preventDefault();
        step(offset, true);
      }}
      {...swipe}
    >
      {places.length > 1 ? (
        <nav ref={pager} aria-label={t("places.pager")} className="flex items-center justify-between gap-2 text-sm">
          <PagerLink to={previous} side="previous" label={previous ? t("places.previous", { place: previous.label }) : ""} />
          <p role="status" className="shrink-0 text-muted" data-testid="place-position">
            <span className="sr-only">{place.label}, </span>
            {t("places.position", { index: index + 1, count: places.length })}
          </p>
          <PagerLink to={next} side="next" label={next ? t("places.next", { place: next.label }) : ""} />
        </nav>
      ) : null}
      <OpenPlaceCard
        key={place.id}
        placeId={place.id}
        {...card}
        hourlyView={hourlyView.current}
        onHourlyViewChange={(view) => (hourlyView.current = view)}
      />
    </div>
  );
}
