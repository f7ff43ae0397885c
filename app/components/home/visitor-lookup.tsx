import { useState } from "react";
import { useTranslation } from "react-i18next";
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
  const translation = useTranslation();
  const { t } = translation;
  const settings = useDisplaySettings();
  const now = useNow();
  const [result] = useQuery({ query: WEATHER_AT_QUERY, variables: { latitude: location.latitude, longitude: location.longitude } });
  const weather = result.data?.weatherAt;
  if (!weather) {
    return result.fetching ? <div className="card h-96 animate-pulse" role="status" aria-label={t("loading.label")} /> : null;
  }
  return (
    <ForecastCard
      title={location.title}
      subtitle={location.subtitle}
      weather={weather}
      settings={settings}
      now={now}
      translation={translation}
    />
  );
}

/**
 * A visitor looks up any place's forecast; saving places and getting alerts needs an account.
 * `nested`: inside another section (a new account's empty place list), one heading level down.
 */
export function VisitorLookup({ nested = false }: { nested?: boolean }) {
  const { t } = useTranslation();
  const [location, setLocation] = useState<LookedUp | null>(null);
  const Heading = nested ? "h3" : "h2";
  return (
    <section aria-labelledby="visitor-heading" className={`flex max-w-2xl flex-col gap-4 ${nested ? "" : "mt-8"}`}>
      <Heading id="visitor-heading" className={nested ? "text-lg font-semibold" : "text-xl font-semibold"}>
        {t("visitor.title")}
      </Heading>
      <LocationSearch onSelect={(found) => setLocation(foundPlace(found))} />
      <div>
        <UseMyLocationButton
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
