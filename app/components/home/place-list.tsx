import type { TFunction } from "i18next";
import { useClient } from "urql";
import { useNavigate } from "react-router";
import { OpenPlace } from "~/components/home/open-place";
import { AddFirstPlace } from "~/components/home/add-first-place";
import { UseMyLocationButton } from "~/components/places/use-my-location";
import type { CardTranslation } from "~/components/weather/forecast-card";
import type { PlaceWarningsReport } from "~/components/weather/official-warning-types";
import type { DisplaySettings } from "~/lib/display-settings";
import type { Coordinates } from "~/lib/geolocation";
import { openOverlay } from "~/lib/overlays/overlay-store";
import { placeHref } from "~/lib/open-place";
import type { PlaceRowFieldsFragment as PlaceSummary } from "~/lib/graphql/documents.generated";

/** "Use my location": opens the place the person is at, or saves it (place-at-position.ts, loaded on the press). */
function useShowOrAddPosition(places: PlaceSummary[], t: TFunction) {
  const client = useClient();
  const navigate = useNavigate();
  const open = (placeId: string) => navigate(placeHref(placeId), { preventScrollReset: true });
  return async (at: Coordinates) => (await import("~/components/places/place-at-position")).showOrAddPlaceAt(at, places, client, t, open);
}

/**
 * "Your places": the place open now (the switcher beside it chooses which), or for a new account one search and
 * one "Use my location" that save the first place.
 */
export function PlaceList({
  places,
  openId,
  warnings,
  settings,
  now,
  translation,
}: {
  places: PlaceSummary[];
  /** The place shown whole (its id); null when there are none. */
  openId: string | null;
  warnings?: ReadonlyMap<string, PlaceWarningsReport>;
  settings: DisplaySettings;
  now: number;
  translation: CardTranslation;
}) {
  const { t } = translation;
  const showOrAdd = useShowOrAddPosition(places, t);
  const open = places.find((place) => place.id === openId);
  return (
    <section aria-labelledby="places-heading" className="flex min-w-0 flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <h2 id="places-heading" className="whitespace-nowrap text-xl font-semibold">
          {t("places.title")}
        </h2>
        {places.length > 0 ? (
          <div className="flex flex-nowrap gap-2">
            <UseMyLocationButton t={t} onLocated={showOrAdd} />
            <button type="button" className="button whitespace-nowrap" onClick={() => openOverlay("add-place")}>
              {t("addPlace.open")}
            </button>
          </div>
        ) : null}
      </div>
      {open ? (
        <OpenPlace places={places} place={open} warnings={warnings?.get(open.id)} settings={settings} now={now} translation={translation} />
      ) : (
        // A new account: one search and one "Use my location", each saving the place it finds.
        <div className="card flex flex-col gap-4">
          <p className="text-muted">{t("places.empty")}</p>
          <AddFirstPlace />
          <div>
            <UseMyLocationButton t={t} onLocated={showOrAdd} />
          </div>
        </div>
      )}
    </section>
  );
}
