import type { PlaceTable } from "../db/tables";
import type { AirQuality } from "../weather/air-quality";
import type { AirQualityService } from "../weather/air-quality-service.server";
import type { Forecast } from "../weather/forecast";
import type { ForecastService } from "../weather/forecast-service.server";
import type { Pair } from "./alert-pass-reads.server";
import { hoursFor, type Watched } from "./alert-watch.server";

/**
 * Air quality at these places (those an AQI rule watches: no other rule needs it), by place. Where it cannot be had a
 * pass reads null (the place is skipped quietly); a preview lets the failure through, since finding nothing would read
 * as clean air (WEATHER_UNAVAILABLE, as for forecasts).
 */
export async function airQualityOf(
  airQuality: AirQualityService,
  places: PlaceTable[],
  onFailure: "skip" | "throw" = "skip",
): Promise<Map<string, AirQuality | null>> {
  if (places.length === 0) return new Map();
  const results = await Promise.allSettled(places.map((place) => airQuality.get(place)));
  return new Map(
    places.map((place, index) => {
      const result = results[index]!;
      if (result.status === "fulfilled") return [place.id, result.value.data];
      if (onFailure === "throw") throw result.reason;
      return [place.id, null];
    }),
  );
}

/** What a pass read of the weather, by place: a forecast (null where it failed) and, for AQI rules' places, the air. */
export type Readings = { forecastOf: Map<string, Forecast | null>; airOf: Map<string, AirQuality | null> };

/** The weather of every place the pairs cover, each place once. */
export async function readingsOf(pairs: Pair[], forecasts: ForecastService, airQuality: AirQualityService): Promise<Readings> {
  // All places' forecasts are asked for at once: they go upstream together.
  const distinct = [...new Map(pairs.map((pair) => [pair.place.id, pair.place])).values()];
  const aqiPlaces = [...new Map(pairs.filter((pair) => pair.rule.metric === "AQI").map((pair) => [pair.place.id, pair.place])).values()];
  // Both asked for before either is awaited: each kind goes upstream in one request.
  const airOfPlace = airQualityOf(airQuality, aqiPlaces);
  const results = await Promise.allSettled(distinct.map((place) => forecasts.get(place)));
  const airOf = await airOfPlace;
  const forecastOf = new Map(
    distinct.map((place, index) => {
      const result = results[index]!;
      return [place.id, result.status === "fulfilled" ? result.value.forecast : null];
    }),
  );
  return { forecastOf, airOf };
}

/** What one pair's rule reads at its place this pass (null: nothing to read, the pair is skipped). */
export function watchedBy({ rule, place, settings }: Pair, { forecastOf, airOf }: Readings): Watched | null {
  const forecast = forecastOf.get(place.id) ?? null;
  const hours = hoursFor(rule.metric, forecast?.hourly ?? null, airOf.get(place.id), settings);
  return forecast && hours ? { forecast, hours } : null;
}
