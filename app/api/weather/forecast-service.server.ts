import type { Db } from "../db/database.server";
import { apiError, withServerCause } from "../errors.server";
import type { ApiMetrics } from "../metrics.server";
import { createCoordinateCache } from "./coordinate-cache.server";
import type { Coordinate, Forecast } from "./forecast";
import type { OpenMeteoClient } from "./open-meteo.server";
import { decodeForecast, encodeForecast } from "./stored-forecast.server";

export { STORE_DELAY_MS } from "./coordinate-cache.server";

export type ForecastResult = { key: string; forecast: Forecast; fetchedAt: Date; stale: boolean };

export type ForecastServiceOptions = {
  client: OpenMeteoClient;
  db: Db;
  /** How long a forecast is fresh. */
  ttlMs?: number;
  /** Coordinates per upstream request. */
  batchSize?: number;
  now?: () => Date;
  /** Counts lookups in the forecasts cached in memory: hits and misses. */
  metrics?: ApiMetrics;
  /** Forecasts kept in memory at most. */
  memoryEntries?: number;
};

/** Forecasts, cached, batched and kept when the provider fails, as coordinate-cache.server.ts does it. */
export function createForecastService({ client, ...options }: ForecastServiceOptions) {
  const cache = createCoordinateCache<Forecast>({
    ...options,
    fetchMany: (coordinates) => client.forecasts(coordinates),
    table: "forecast_cache",
    name: "forecast",
    encode: encodeForecast,
    decode: decodeForecast,
    unavailable: (cause) =>
      withServerCause(
        apiError("WEATHER_UNAVAILABLE", "The weather service cannot be reached right now; try again in a few minutes"),
        cause,
      ),
  });
  return {
    ttlMs: cache.ttlMs,
    flushStores: cache.flushStores,
    /** The forecast at a coordinate; `maxAgeMs` asks for one fetched more recently than the ttl. */
    async get(coordinate: Coordinate, maxAgeMs?: number): Promise<ForecastResult> {
      const { data, ...result } = await cache.get(coordinate, maxAgeMs);
      return { ...result, forecast: data };
    },
  };
}

export type ForecastService = ReturnType<typeof createForecastService>;
