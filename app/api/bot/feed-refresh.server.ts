import type { Db } from "../db/database.server";
import type { AirQualityService } from "../weather/air-quality-service.server";
import type { ForecastService } from "../weather/forecast-service.server";
import { wakeRulesAt } from "./rule-wakes.server";
import type { UserScope } from "./shard-ranges";
import {
  airHash,
  dueFeeds,
  forecastHash,
  forgetFeeds,
  refreshPlan,
  nowcastHash,
  recordFeeds,
  type FeedKind,
  type FeedReading,
} from "./watched-feeds.server";

/** Feeds read again in one pass at most: the rest wait for the next. */
const REFRESH_LIMIT = 5000;
/** A feed whose read failed (or was served stale) is tried again this soon. */
const RETRY_MS = 60_000;
/** A refresh takes a value fetched this recently (by a page or a rule's read) rather than asking upstream again. */
const REFRESH_MAX_AGE_MS = 60_000;

type RefreshDeps = { db: Db; forecasts: ForecastService; airQuality: AirQualityService; refreshSpread?: boolean };

/**
 * Reads again the watched feeds (of the shards in `scope`) whose time has come, through the caches (so they go
 * upstream batched, as any read does; as each expires, or spread over the cycle, see refreshPlan), and wakes the
 * rules at each coordinate whose weather came back different (decision 026). Returns how many changed.
 */
export async function refreshFeeds(
  { db, forecasts, airQuality, refreshSpread }: RefreshDeps,
  current: Date,
  scope: UserScope,
): Promise<number> {
  // Spread, a feed is read at its phase, before its value expires: a value fetched in the last minute will do.
  const maxAgeMs = refreshSpread ? REFRESH_MAX_AGE_MS : undefined;
  const refreshAfter = refreshPlan(refreshSpread);
  const due = await dueFeeds(db, current.toISOString(), scope, REFRESH_LIMIT);
  if (due.length === 0) return 0;
  const reads = await Promise.allSettled(
    due.map(async (row) => {
      if (row.feed === "air") {
        const { data, fetchedAt, stale } = await airQuality.get(row, maxAgeMs);
        return { hash: airHash(data), fetchedAt, stale, ttlMs: airQuality.ttlMs };
      }
      const { forecast, fetchedAt, stale } = await forecasts.get(row, maxAgeMs);
      const hash = row.feed === "nowcast" ? nowcastHash(forecast) : forecastHash(forecast);
      return { hash, fetchedAt, stale, ttlMs: forecasts.ttlMs };
    }),
  );
  const retry = new Date(current.getTime() + RETRY_MS).toISOString();
  const changed: Array<{ key: string; kind: FeedKind }> = [];
  const readings = due.map((row, index): FeedReading => {
    const read = reads[index]!;
    const base = { coordinate: row, kind: row.feed as FeedReading["kind"] };
    if (read.status === "rejected") return { ...base, hash: row.content_hash, nextRefreshAt: retry };
    const { hash, fetchedAt, stale, ttlMs } = read.value;
    if (hash !== row.content_hash) changed.push({ key: row.coordinate_key, kind: base.kind });
    const next = refreshAfter(row, refreshSpread ? Math.max(fetchedAt.getTime(), current.getTime()) : fetchedAt.getTime(), ttlMs);
    return { ...base, hash, nextRefreshAt: stale ? retry : next };
  });
  await recordFeeds(db, readings, true);
  await forgetFeeds(db, await wakeRulesAt(db, changed));
  return changed.length;
}
