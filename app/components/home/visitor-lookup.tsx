import { lazy, Suspense, useEffect, useState } from "react";
import type { TFunction } from "i18next";
import { describeLocation, LocationSearch } from "~/components/places/location-search";
import { UseMyLocationButton } from "~/components/places/use-my-location";
import { whenBrowserIdle } from "~/lib/browser-idle";
import type { SearchLocationsQuery } from "~/lib/graphql/documents.generated";
import type { LookedUp } from "./visitor-forecast";

type LocationResult = SearchLocationsQuery["searchLocations"][number];

// The card and its query are shown only after a search, never by the server: not in the visitor's first load. They
// load once the page is idle, so a search's answer does not wait for them.
const loadVisitorForecast = () => import("./visitor-forecast");
const VisitorForecast = lazy(loadVisitorForecast);

const foundPlace = (location: LocationResult): LookedUp => ({
  key: location.id,
  title: location.name,
  subtitle: describeLocation(location),
  latitude: location.latitude,
  longitude: location.longitude,
});

/** A visitor looks up any place's forecast; saving places and getting alerts needs an account. */
export function VisitorLookup({ t }: { t: TFunction }) {
  const [location, setLocation] = useState<LookedUp | null>(null);
  useEffect(() => whenBrowserIdle(() => void loadVisitorForecast().catch(() => undefined)), []);
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
      {location ? (
        <Suspense fallback={<div className="card h-96 animate-pulse" role="status" aria-label={t("loading.label")} />}>
          <VisitorForecast key={location.key} location={location} />
        </Suspense>
      ) : null}
    </section>
  );
}
