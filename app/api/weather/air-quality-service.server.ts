import type { Db } from "../db/database.server";
import { apiError, withServerCause } from "../errors.server";
import type { ApiMetrics } from "../metrics.server";
import type { AirQuality } from "./air-quality";
import { createCoordinateCache } from "./coordinate-cache.server";
import type { OpenMeteoClient } from "./open-meteo.server";

/**
 * Air quality with the forecasts' rules (coordinate-cache.server.ts): cached per rounded
 * coordinate in memory and in the database, asked for in one multi-coordinate request per
 * tick, and the last known report served, stale, while the provider fails.
 */
export function createAirQualityService({
  client,
  ...options
}: {
  client: OpenMeteoClient;
  db: Db;
  ttlMs?: number;
  batchSize?: number;
  now?: () => Date;
  metrics?: ApiMetrics;
}) {
  return createCoordinateCache<AirQuality>({
    ...options,
    fetchMany: (coordinates) => client.airQuality(coordinates),
    table: "air_quality_cache",
    name: "air-quality",
    unavailable: (cause) =>
      withServerCause(
        apiError("WEATHER_UNAVAILABLE", "The air-quality service cannot be reached right now; try again in a few minutes"),
        cause,
      ),
  });
}

export type AirQualityService = ReturnType<typeof createAirQualityService>;
