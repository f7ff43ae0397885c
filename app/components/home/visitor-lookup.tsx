import { useEffect, useRef, useState } from "react";
import type { TFunction } from "i18next";
import { usePageTranslation } from "~/lib/i18n/use-page-translation";
import { useQuery } from "urql";
import { describeLocation, LocationSearch } from "~/components/places/location-search";
import { UseMyLocationButton } from "~/components/places/use-my-location";
import { ForecastCard } from "~/components/weather/forecast-card";
import { useDisplaySettings, useNow } from "~/lib/display-settings";
import type { Coordinates } from "~/lib/geolocation";
import { WEATHER_AT_QUERY } from "~/lib/graphql/documents";
import type { SearchLocationsQuery } from "~/lib/graphql/documents.generated";

type LocationResult = SearchLocationsQuery["searchLocations"][number];

/** What the lookup shows: a place found by search, or where the browser is. */
type LookedUp = Coordinates & { key: string; title: string; subtitle: string };

const foundPlace = (location: LocationResult): LookedUp => ({
  key: location.id,
  title: location.name,
  subtitle: describeLocation(location),
  latitude: location.latitude,
  longitude: location.longitude,
});

function LookupForecast({ location }: { location: LookedUp }) {
  const translation = usePageTranslation();
  const { t } = translation;
  const settings = useDisplaySettings();
  const now = useNow();
  const [result] = useQuery({ query: WEATHER_AT_QUERY, variables: { latitude: location.latitude, longitude: location.longitude } });
  const weather = result.data?.weatherAt;
  const shown = useRef<HTMLDivElement>(null);
  // On a phone the forecast starts below the fold, under the search: bring it up once it is here.
  const arrived = weather !== undefined;
  useEffect(() => {
    if (arrived) shown.current?.scrollIntoView({ block: "start" });
  }, [arrived]);
  if (!weather) {
    return result.fetching ? <div className="card h-96 animate-pulse" role="status" aria-label={t("loading.label")} /> : null;
  }
  return (
    <div ref={shown} className="scroll-mt-20">
      <ForecastCard
        title={location.title}
        subtitle={location.subtitle}
        weather={weather}
        settings={settings}
        now={now}
        translation={translation}
      />
    </div>
  );
}

/** A visitor looks up any place's forecast; saving places and getting alerts needs an account. */
export function VisitorLookup({ t }: { t: TFunction }) {
  const [location, setLocation] = useState<LookedUp | null>(null);
  return (
    <section aria-labelledby="visitor-heading" className="mt-8 flex max-w-2xl flex-col gap-4">
      <h2 id="visitor-heading" className="text-xl font-semibold">
        {t("visitor.title")}
      </h2>
      <LocationSearch onSelect={(found) => setLocation(foundPlace(found))} placeholder={t("search.example")} />
      <div>
        <UseMyLocationButton
          t={t}
          onLocated={(at) =>
            setLocation({
              ...at,
              key: `${at.latitude},${at.longitude}`,
              title: t("location.label"),
              subtitle: `${at.latitude}, ${at.longitude}`,
            })
          }
        />
      </div>
      {location ? <LookupForecast key={location.key} location={location} /> : null}
    </section>
  );
}
