import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useQuery } from "urql";
import { describeLocation, LocationSearch } from "~/components/places/location-search";
import { ForecastCard } from "~/components/weather/forecast-card";
import { WEATHER_AT_QUERY } from "~/lib/graphql/documents";
import type { SearchLocationsQuery } from "~/lib/graphql/documents.generated";

type LocationResult = SearchLocationsQuery["searchLocations"][number];

function LookupForecast({ location }: { location: LocationResult }) {
  const { t } = useTranslation();
  const [result] = useQuery({ query: WEATHER_AT_QUERY, variables: { latitude: location.latitude, longitude: location.longitude } });
  const weather = result.data?.weatherAt;
  if (!weather) {
    return result.fetching ? <div className="card h-96 animate-pulse" role="status" aria-label={t("loading.label")} /> : null;
  }
  return <ForecastCard title={location.name} subtitle={describeLocation(location)} weather={weather} />;
}

/**
 * A visitor looks up any place's forecast; saving places and getting alerts needs an account.
 * `nested`: inside another section (a new account's empty place list), one heading level down.
 */
export function VisitorLookup({ nested = false }: { nested?: boolean }) {
  const { t } = useTranslation();
  const [location, setLocation] = useState<LocationResult | null>(null);
  const Heading = nested ? "h3" : "h2";
  return (
    <section aria-labelledby="visitor-heading" className={`flex max-w-2xl flex-col gap-4 ${nested ? "" : "mt-8"}`}>
      <Heading id="visitor-heading" className={nested ? "text-lg font-semibold" : "text-xl font-semibold"}>
        {t("visitor.title")}
      </Heading>
      <LocationSearch onSelect={setLocation} />
      {location ? <LookupForecast key={location.id} location={location} /> : null}
    </section>
  );
}
