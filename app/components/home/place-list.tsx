import { useTranslation } from "react-i18next";
import { useClient } from "urql";
import { VisitorLookup } from "~/components/home/visitor-lookup";
import { UseMyLocationButton } from "~/components/places/use-my-location";
import { ForecastCard } from "~/components/weather/forecast-card";
import type { PlaceWarningsReport } from "~/components/weather/official-warning-types";
import { OfficialWarnings } from "~/components/weather/official-warnings";
import { useDisplaySettings, useNow } from "~/lib/display-settings";
import type { Coordinates } from "~/lib/geolocation";
import { openOverlay } from "~/lib/overlays/overlay-store";
import { placeCardId } from "~/lib/place-card-id";
import type { PlaceFieldsFragment as PlaceSummary } from "~/lib/graphql/documents.generated";
import { formatRegionName } from "~/shared/units";

/** Where a place is: its name when the user labelled it otherwise, and its region and country. */
function placeSubtitle(place: PlaceSummary, locale: string): string {
  const region = [place.label !== place.name ? place.name : null, place.admin1];
  const country = place.countryCode ? formatRegionName(place.countryCode, locale) : null;
  return [...region, country].filter(Boolean).join(", ");
}

/** From this many places on, all but the first card start compact. */
export const COMPACT_CARDS_FROM = 4;

/** "Use my location": shows the place the person is at, or saves it (place-at-position.ts, loaded on the press). */
function useShowOrAddPosition(places: PlaceSummary[]) {
  const { t } = useTranslation();
  const client = useClient();
  return async (at: Coordinates) => (await import("~/components/places/place-at-position")).showOrAddPlaceAt(at, places, client, t);
}

/**
 * A forecast card per saved place, in the user's order; with its official warnings once they are known (`warnings`
 * by place id: the PlaceWarnings query, apart from the places').
 */
export function PlaceList({ places, warnings }: { places: PlaceSummary[]; warnings?: ReadonlyMap<string, PlaceWarningsReport> }) {
  const translation = useTranslation();
  const { t, i18n } = translation;
  const showOrAdd = useShowOrAddPosition(places);
  // Once for the list, not once per card.
  const settings = useDisplaySettings();
  const now = useNow();
  return (
    <section aria-labelledby="places-heading" className="flex min-w-0 flex-col gap-4">
      <div className="flex items-center justify-between gap-4">
        <h2 id="places-heading" className="text-xl font-semibold">
          {t("places.title")}
        </h2>
        <div className="flex flex-wrap justify-end gap-2">
          <UseMyLocationButton onLocated={showOrAdd} />
          <button type="button" className="button" onClick={() => openOverlay("add-place")}>
            {t("addPlace.open")}
          </button>
        </div>
      </div>
      {places.length === 0 ? (
        // A new account: what "Add a place" above is for, and meanwhile any place's weather right here.
        <div className="card flex flex-col gap-4">
          <p className="text-muted">{t("places.empty")}</p>
          <VisitorLookup nested />
        </div>
      ) : (
        <ul className="flex flex-col gap-4" data-testid="places">
          {places.map((place, index) => {
            const report = warnings?.get(place.id);
            return (
              <li key={place.id} id={placeCardId(place.id)} className="scroll-mt-20">
                <ForecastCard
                  title={place.label}
                  subtitle={placeSubtitle(place, i18n.language)}
                  weather={place.weather}
                  settings={settings}
                  now={now}
                  translation={translation}
                  placeId={place.id}
                  compact={index > 0 && places.length >= COMPACT_CARDS_FROM}
                  notice={
                    report ? (
                      <OfficialWarnings
                        report={report}
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
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
