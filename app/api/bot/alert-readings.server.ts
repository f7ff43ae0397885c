import type { PlaceTable } from "../db/tables";
import type { AirQuality } from "../weather/air-quality";
import type { AirQualityService } from "../weather/air-quality-service.server";
import type { Forecast } from "../weather/forecast";
import type { ForecastService } from "../weather/forecast-service.server";
import type { Pair } from "./alert-pass-reads.server";
import { hoursFor, ruleSpec, type Watched } from "./alert-watch.server";
import { airHash, forecastHash, nowcastHash, readsFeed, type FeedReading, type RefreshPlan } from "./watched-feeds.server";

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

/**
 * What a pass read of the weather, by place: a forecast (null where it failed) and, for AQI rules' places, the air;
 * and each feed read, with when it is to be read again (its phase of the cache's cycle), for the engine's watch list.
 */
export type Readings = { forecastOf: Map<string, Forecast | null>; airOf: Map<string, AirQuality | null>; feeds: FeedReading[] };

/** The weather of every place the pairs cover, each place once. */
export async function readingsOf(
  pairs: Pair[],
  forecasts: ForecastService,
  airQuality: AirQualityService,
  refreshAfter: RefreshPlan,
): Promise<Readings> {
  // All places' forecasts are asked for at once: they go upstream together.
  const distinct = [...new Map(pairs.map((pair) => [pair.place.id, pair.place])).values()];
  const aqiPlaces = [...new Map(pairs.filter((pair) => pair.rule.metric === "AQI").map((pair) => [pair.place.id, pair.place])).values()];
  // Both asked for before either is awaited: each kind goes upstream in one request.
  const airResults = Promise.allSettled(aqiPlaces.map((place) => airQuality.get(place)));
  const results = await Promise.allSettled(distinct.map((place) => forecasts.get(place)));
  const airs = await airResults;
  const feeds: FeedReading[] = [];
  // Which of the forecast's feeds the rules at each place read: its hours, its nowcast, or both.
  const kindsAt = new Map<string, Set<"forecast" | "nowcast">>();
  for (const { rule, place } of pairs) {
    const kinds = kindsAt.get(place.id) ?? new Set();
    kinds.add(readsFeed(rule.metric, "nowcast") ? "nowcast" : "forecast");
    kindsAt.set(place.id, kinds);
  }
  const forecastOf = new Map(
    distinct.map((place, index) => {
      const result = results[index]!;
      if (result.status === "rejected") return [place.id, null];
      const { forecast, fetchedAt } = result.value;
      const next = refreshAfter(place, fetchedAt.getTime(), forecasts.ttlMs);
      for (const kind of kindsAt.get(place.id)!) {
        feeds.push({
          coordinate: place,
          kind,
          hash: kind === "nowcast" ? nowcastHash(forecast) : forecastHash(forecast),
          nextRefreshAt: next,
        });
      }
      return [place.id, forecast];
    }),
  );
  const airOf = new Map(
    aqiPlaces.map((place, index) => {
      const result = airs[index]!;
      if (result.status === "rejected") return [place.id, null];
      const { data, fetchedAt } = result.value;
      const next = refreshAfter(place, fetchedAt.getTime(), airQuality.ttlMs);
      feeds.push({ coordinate: place, kind: "air", hash: airHash(data), nextRefreshAt: next });
      return [place.id, data];
    }),
  );
  return { forecastOf, airOf, feeds };
}

/** What one pair's rule reads at its place this pass (null: nothing to read, the pair is skipped). */
export function watchedBy({ rule, place }: Pair, { forecastOf, airOf }: Readings): Watched | null {
  const forecast = forecastOf.get(place.id) ?? null;
  const hours = hoursFor(ruleSpec(rule), forecast?.hourly ?? null, airOf.get(place.id));
  return forecast && hours ? { forecast, hours } : null;
}
