import { createHash } from "node:crypto";
import type { Db } from "../db/database.server";
import type { WatchedFeedTable } from "../db/tables";
import type { AirQuality } from "../weather/air-quality";
import { coordinateKey, roundCoordinate, type Coordinate, type Forecast, type HourlyForecast } from "../weather/forecast";
import { showers } from "./rain-soon";
import { inScope, type UserScope } from "./shard-ranges";

/**
 * The kinds of weather rules read: the forecast's hours (every rule but RAIN_SOON), its quarter-hour nowcast
 * (RAIN_SOON rules) and, for AQI rules, the air.
 */
export type FeedKind = "forecast" | "nowcast" | "air";

/** The rules that read a kind of weather, by metric: those a change of it wakes. */
export function readsFeed(metric: string, kind: FeedKind): boolean {
  if (kind === "nowcast") return metric === "RAIN_SOON";
  if (kind === "air") return metric === "AQI";
  return metric !== "RAIN_SOON";
}

/** A feed as the engine read it: where, what (as a hash) and when it must be read again. */
export type FeedReading = { coordinate: Coordinate; kind: FeedKind; hash: string; nextRefreshAt: string };

const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

/** The fields of an hour that rules read, in the order hashed. */
const HOUR_FIELDS = [
  "time",
  "weatherCode",
  "isDay",
  "temperature",
  "apparentTemperature",
  "precipitation",
  "precipitationProbability",
  "snowfall",
  "windSpeed",
  "windGusts",
  "windDirection",
  "uvIndex",
] as const satisfies ReadonlyArray<keyof HourlyForecast>;

// A forecast is hashed where its feed is refreshed and again where each rule reading it records its feed: once per
// forecast object (the cache hands out the same one until it fetches another).
const forecastHashes = new WeakMap<Forecast, string>();

/**
 * What rules read of a forecast's hours, as a hash: its current conditions and days change the answer of none. Hashed
 * as numbers (absent: NaN), not as JSON: building the JSON of 16 days of hours was the refresh's biggest cost (issue 34).
 */
export function forecastHash(forecast: Forecast): string {
  const known = forecastHashes.get(forecast);
  if (known) return known;
  const values = new Float64Array(forecast.hourly.length * HOUR_FIELDS.length);
  let index = 0;
  for (const hour of forecast.hourly) {
    for (const field of HOUR_FIELDS) {
      const value = hour[field];
      values[index++] = value === null || value === undefined ? Number.NaN : Number(value);
    }
  }
  const hash = createHash("sha1").update(values).digest("hex");
  forecastHashes.set(forecast, hash);
  return hash;
}

/**
 * What RAIN_SOON rules read of the nowcast (findShowers): its showers, and whether each began after the first quarter.
 * The quarters themselves move on every refresh; a nowcast that moves on with no shower in it changes nothing.
 */
export function nowcastHash(forecast: Forecast): string {
  const quarters = forecast.minutely15 ?? [];
  const first = quarters[0]?.time ?? 0;
  return sha1(
    JSON.stringify(showers(quarters).map((shower) => [shower.from > first, shower.from, shower.to, shower.peakAt, shower.peakValue])),
  );
}

/** What AQI rules read of an air-quality report (its hours), as a hash. */
export function airHash(air: AirQuality): string {
  return sha1(JSON.stringify(air.hourly));
}

/** When a feed read at `after` (ms, its value's fetch time) is next read, for a cache whose values last `ttlMs`. */
export type RefreshPlan = (coordinate: Coordinate, after: number, ttlMs: number) => string;

/** As its cached value expires: a pass sees what it would have seen reading the cache itself. */
const onExpiry: RefreshPlan = (_coordinate, after, ttlMs) => new Date(after + Math.max(ttlMs, 1)).toISOString();

/**
 * The first instant after `after` in the feed's own phase of the cache's cycle, the phase set by its coordinate. The
 * feeds watched since one moment (a first pass, a restart) are so read again spread over the cycle, not all in the
 * same minute; each is then read once a cycle. Places that a rule told together may now be told in two messages.
 */
export const nextRefreshAt: RefreshPlan = (coordinate, after, ttlMs) => {
  if (ttlMs <= 0) return new Date(after).toISOString();
  const phase = parseInt(sha1(coordinateKey(roundCoordinate(coordinate))).slice(0, 8), 16) % ttlMs;
  return new Date(after + ((phase - (after % ttlMs) + ttlMs) % ttlMs || ttlMs)).toISOString();
};

/** The plan a setting asks for. */
export const refreshPlan = (spread = false): RefreshPlan => (spread ? nextRefreshAt : onExpiry);

function rowOf({ coordinate, kind, hash, nextRefreshAt }: FeedReading): WatchedFeedTable {
  const rounded = roundCoordinate(coordinate);
  const key = coordinateKey(rounded);
  // A hex key, so the shards' user-id ranges cut the feeds as evenly as they cut users.
  return {
    coordinate_key: key,
    feed: kind,
    ...rounded,
    shard_key: sha1(key).slice(0, 12),
    content_hash: hash,
    next_refresh_at: nextRefreshAt,
  };
}

/** The feeds of the shards in `scope` due to be read again at `current`, soonest first. */
export function dueFeeds(db: Db, current: string, scope: UserScope, limit: number): Promise<WatchedFeedTable[]> {
  return db
    .selectFrom("watched_feeds")
    .selectAll()
    .where("next_refresh_at", "<=", current)
    .$if(scope !== null, (query) => query.where((eb) => inScope(eb, "shard_key", scope!)))
    .orderBy("next_refresh_at")
    .limit(limit)
    .execute();
}

/**
 * Keeps what was read: `replace` writes hash and time over a row already there (a refresh); otherwise
 * a row already there stays (a rule's own read, which the feed's next refresh compares with what it knew).
 */
export async function recordFeeds(db: Db, readings: FeedReading[], replace: boolean): Promise<void> {
  const rows = [...new Map(readings.map((reading) => rowOf(reading)).map((row) => [`${row.coordinate_key} ${row.feed}`, row])).values()];
  for (let start = 0; start < rows.length; start += 500) {
    await db
      .insertInto("watched_feeds")
      .values(rows.slice(start, start + 500))
      .onConflict((conflict) => {
        const target = conflict.columns(["coordinate_key", "feed"]);
        return replace
          ? target.doUpdateSet((eb) => ({
              content_hash: eb.ref("excluded.content_hash"),
              next_refresh_at: eb.ref("excluded.next_refresh_at"),
            }))
          : target.doNothing();
      })
      .execute();
  }
}

/** Forgets feeds no rule watches any more. */
export async function forgetFeeds(db: Db, keys: readonly string[]): Promise<void> {
  for (let start = 0; start < keys.length; start += 500) {
    await db
      .deleteFrom("watched_feeds")
      .where("coordinate_key", "in", keys.slice(start, start + 500))
      .execute();
  }
}
