import { useTranslation } from "react-i18next";
import { VisitorLookup } from "~/components/home/visitor-lookup";
import { ForecastCard } from "~/components/weather/forecast-card";
import { openOverlay } from "~/lib/overlays/overlay-store";
import type { PlaceFieldsFragment as PlaceSummary } from "~/lib/graphql/documents.generated";

/** Where a place is: its name when the user labelled it otherwise, and its region and country. */
function placeSubtitle(place: PlaceSummary, locale: string): string {
  const region = [place.label !== place.name ? place.name : null, place.admin1];
  const country = place.countryCode ? new Intl.DisplayNames([locale], { type: "region" }).of(place.countryCode) : null;
  return [...region, country].filter(Boolean).join(", ");
}

/** From this many places on, all but the first card start compact. */
export const COMPACT_CARDS_FROM = 4;

/** A forecast card per saved place, in the user's order. */
export function PlaceList({ places }: { places: PlaceSummary[] }) {
  const { t, i18n } = useTranslation();
  return (
    <section aria-labelledby="places-heading" className="flex min-w-0 flex-col gap-4">
      <div className="flex items-center justify-between gap-4">
        <h2 id="places-heading" className="text-xl font-semibold">
          {t("places.title")}
        </h2>
        <button type="button" className="button" onClick={() => openOverlay("add-place")}>
          {t("addPlace.open")}
        </button>
      </div>
      {places.length === 0 ? (
        // A new account: what "Add a place" above is for, and meanwhile any place's weather right here.
        <div className="card flex flex-col gap-4">
          <p className="text-muted">{t("places.empty")}</p>
          <VisitorLookup nested />
        </div>
      ) : (
        <ul className="flex flex-col gap-4" data-testid="places">
          {places.map((place, index) => (
            <li key={place.id}>
              <ForecastCard
                title={place.label}
                subtitle={placeSubtitle(place, i18n.language)}
                weather={place.weather}
                compact={index > 0 && places.length >= COMPACT_CARDS_FROM}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
