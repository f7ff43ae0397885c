import { useTranslation } from "react-i18next";
import type { PlaceSummary } from "~/lib/graphql/documents";

/** The saved places with their current temperature (the full cards come with the screens issue). */
export function PlaceList({ places }: { places: PlaceSummary[] }) {
  const { t, i18n } = useTranslation();
  const degrees = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 0 });
  return (
    <section aria-labelledby="places-heading" className="card">
      <h2 id="places-heading" className="mb-4 text-lg font-semibold">
        {t("places.title")}
      </h2>
      {places.length === 0 ? (
        <p className="text-muted">{t("places.empty")}</p>
      ) : (
        <ul className="flex flex-col gap-3" data-testid="places">
          {places.map((place) => (
            <li key={place.id} className="flex items-baseline justify-between gap-4">
              <span className="font-medium">{place.label}</span>
              <span className="text-right">
                <span className="text-xl font-semibold">{t("places.temperature", { value: degrees.format(place.weather.current.temperature) })}</span>
                <span className="ml-2 text-sm text-muted">
                  {t("places.feelsLike", { value: degrees.format(place.weather.current.apparentTemperature) })}
                </span>
                {place.weather.stale ? <span className="ml-2 text-sm text-muted">{t("places.stale")}</span> : null}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
