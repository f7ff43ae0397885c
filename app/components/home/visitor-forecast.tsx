import { useEffect, useRef } from "react";
import { ForecastCard } from "~/components/weather/forecast-card";
import { useDisplaySettings, useNow } from "~/lib/display-settings";
import { WEATHER_AT_QUERY } from "~/lib/graphql/later-documents";
import { usePageTranslation } from "~/lib/i18n/use-page-translation";
import { useQuery } from "urql";
import type { Coordinates } from "~/lib/geolocation";

/** What the lookup shows: a place found by search, or where the browser is. */
export type LookedUp = Coordinates & { key: string; title: string; subtitle: string };

/** The forecast of the place a visitor looked up: the whole card, as a saved place's. */
export default function VisitorForecast({ location }: { location: LookedUp }) {
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
