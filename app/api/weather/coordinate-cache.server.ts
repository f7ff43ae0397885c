import { LRUCache } from "lru-cache";
import type { Db } from "../db/database.server";
import { createOutageLog } from "../db/outage-log.server";
import { noMetrics, type ApiMetrics } from "../metrics.server";
import { coordinateKey, roundCoordinate, type Coordinate } from "./forecast";

const UPSTREAM_CONCURRENCY = 4;
/** Values reach the database this long after they arrive (all that arrived meanwhile together). */
export const STORE_DELAY_MS = 1000;
const STORE_CHUNK = 50;
/**
 * Values kept in memory: the most recently read. The engine watches every watched place's weather (100,000 places at
 * scale, issue 34), a value evicted is read back from the database table when next asked for.
 */
const MEMORY_ENTRIES = 20_000;

/** A value for a rounded coordinate, when it was fetched, and whether it is the last known one (upstream failing). */
export type CachedResult<T> = { key: string; data: T; fetchedAt: Date; stale: boolean };

type Entry<T> = { data: T; fetchedAt: Date };
type Waiter<T> = { resolve: (result: CachedResult<T>) => void; reject: (error: unknown) => void };

/** The tables that keep a cache's values across restarts: one per kind, the same columns. */
export type CoordinateCacheTable = "forecast_cache" | "air_quality_cache";

export type CoordinateCacheOptions<T> = {
  /** One upstream request for all these coordinates; the answer is in the same order. */
  fetchMany: (coordinates: Coordinate[]) => Promise<T[]>;
  table: CoordinateCacheTable;
  /** Its name in the cache-lookup metric. */
  name: "forecast" | "air-quality";
  /** What a caller gets when upstream fails and nothing is cached. */
  unavailable: (cause: string) => Error;
  db: Db;
  /** How long a value is fresh. */
  ttlMs?: number;
  /** Coordinates per upstream request. */
  batchSize?: number;
  now?: () => Date;
  /** Counts lookups in the values cached in memory: hits and misses. */
  metrics?: ApiMetrics;
  /** Values kept in memory at most (the least recently used go first). */
  memoryEntries?: number;
  /** A value as the database keeps it, and back: JSON unless told otherwise. */
  encode?: (value: T) => string;
  decode?: (payload: string) => T;
};

/**
 * Open-Meteo's answers with its terms in mind (forecasts, air quality): cached per rounded
 * coordinate (memory, then the database, which survives restarts); every coordinate asked
 * for in the same tick goes upstream in one multi-coordinate request; a coordinate already
 * on its way is not asked for again; and when upstream fails the last known value is
 * served, marked stale with its `fetchedAt`.
 */
export function createCoordinateCache<T>(options: CoordinateCacheOptions<T>) {
  // The tables have the same columns: typed as one of them.
  const table = options.table as "forecast_cache";
  const ttlMs = options.ttlMs ?? 15 * 60_000;
  const batchSize = options.batchSize ?? 50;
  const now = options.now ?? (() => new Date());
  const metrics = options.metrics ?? noMetrics;
  const encode = options.encode ?? JSON.stringify;
  const decode = options.decode ?? ((payload: string) => JSON.parse(payload) as T);
  const memory = new LRUCache<string, Entry<T>>({ max: options.memoryEntries ?? MEMORY_ENTRIES });
  const inFlight = new Map<string, Array<Waiter<T>>>();
  let queued = new Map<string, Coordinate>();
  /** The oldest value each queued key's askers accept, when one asked for fresher than the ttl. */
  const maxAges = new Map<string, number>();
  let flushScheduled = false;

  const freshAt = (fetchedAt: Date, maxAgeMs = ttlMs) => now().getTime() - fetchedAt.getTime() < Math.min(maxAgeMs, ttlMs);
  const isFresh = (entry: Entry<T> | undefined, maxAgeMs = ttlMs): entry is Entry<T> => !!entry && freshAt(entry.fetchedAt, maxAgeMs);

  function settle(key: string, outcome: { result?: CachedResult<T>; error?: unknown }) {
    const waiters = inFlight.get(key) ?? [];
    inFlight.delete(key);
    for (const waiter of waiters) {
      if (outcome.result) waiter.resolve(outcome.result);
      else waiter.reject(outcome.error);
    }
  }

  /** The values kept in the database for these keys (all of them: `fresh` filters their fetch times first). */
  async function storedEntries(keys: string[], fresh?: (fetchedAt: string, key: string) => boolean): Promise<Map<string, Entry<T>>> {
    const entries = new Map<string, Entry<T>>();
    if (keys.length === 0) return entries;
    let wanted = keys;
    if (fresh) {
      const ages = await options.db
        .selectFrom(table)
        .select(["coordinate_key", "fetched_at"])
        .where("coordinate_key", "in", keys)
        .execute();
      wanted = ages.filter((row) => fresh(row.fetched_at, row.coordinate_key)).map((row) => row.coordinate_key);
      if (wanted.length === 0) return entries;
    }
    const rows = await options.db.selectFrom(table).selectAll().where("coordinate_key", "in", wanted).execute();
    for (const row of rows) entries.set(row.coordinate_key, { data: decode(row.payload), fetchedAt: new Date(row.fetched_at) });
    return entries;
  }

  /**
   * Keeps fresh values in the database, a statement per chunk. No transaction around
   * them: each statement stands alone (a cache row is whole or absent), and a transaction
   * held across awaits would make another connection in this process wait on a lock that
   * cannot be released while it waits.
   */
  async function store(entries: Array<[string, Entry<T>]>) {
    for (let start = 0; start < entries.length; start += STORE_CHUNK) {
      await options.db
        .insertInto(table)
        .values(
          entries.slice(start, start + STORE_CHUNK).map(([key, entry]) => ({
            coordinate_key: key,
            fetched_at: entry.fetchedAt.toISOString(),
            payload: encode(entry.data),
          })),
        )
        .onConflict((conflict) =>
          conflict
            .column("coordinate_key")
            .doUpdateSet((eb) => ({ fetched_at: eb.ref("excluded.fetched_at"), payload: eb.ref("excluded.payload") })),
        )
        .execute();
    }
  }

  // Written behind: the database copy only matters after a restart, and serialising a big
  // pass's forecasts (≈ 15 MB for 1,000 places) held up the engine's tick that waited for them.
  let unstored = new Map<string, Entry<T>>();
  let storeTimer: NodeJS.Timeout | null = null;
  let storing: Promise<void> = Promise.resolve();
  const storeLog = createOutageLog("[weather]", `could not keep ${options.table}`);

  function flushStores(): Promise<void> {
    if (storeTimer) clearTimeout(storeTimer);
    storeTimer = null;
    const entries = [...unstored];
    unstored = new Map();
    if (entries.length > 0) {
      storing = storing.then(() => store(entries)).then(storeLog.succeeded, storeLog.failed);
    }
    return storing;
  }

  function storeLater(entries: Array<[string, Entry<T>]>) {
    for (const [key, entry] of entries) unstored.set(key, entry);
    storeTimer ??= setTimeout(() => void flushStores(), STORE_DELAY_MS);
  }

  async function fetchBatch(batch: Map<string, Coordinate>) {
    const keys = [...batch.keys()];
    // Only payloads fresh enough for their askers are read and parsed: a refresh asks for values that expired, and
    // parsing each expired payload only to drop it was most of a refresh's cost at scale (issue 34).
    const stored = await storedEntries(keys, (fetchedAt, key) => freshAt(new Date(fetchedAt), maxAges.get(key)));
    const missing: string[] = [];
    for (const key of keys) {
      const entry = stored.get(key);
      const maxAgeMs = maxAges.get(key);
      maxAges.delete(key);
      if (isFresh(entry, maxAgeMs)) {
        memory.set(key, entry);
        settle(key, { result: { key, ...entry, stale: false } });
      } else {
        missing.push(key);
      }
    }
    const chunks: string[][] = [];
    for (let start = 0; start < missing.length; start += batchSize) chunks.push(missing.slice(start, start + batchSize));
    // A few upstream requests at a time: quick for a big pass, still polite to the provider.
    const workers = Array.from({ length: Math.min(UPSTREAM_CONCURRENCY, chunks.length) }, async () => {
      for (let chunk = chunks.shift(); chunk; chunk = chunks.shift()) await fetchChunk(chunk, batch);
    });
    await Promise.all(workers);
  }

  async function fetchChunk(chunk: string[], batch: Map<string, Coordinate>) {
    try {
      const values = await options.fetchMany(chunk.map((key) => batch.get(key)!));
      const fetchedAt = now();
      const entries = chunk.map((key, index): [string, Entry<T>] => [key, { data: values[index]!, fetchedAt }]);
      for (const [key, entry] of entries) {
        memory.set(key, entry);
        settle(key, { result: { key, ...entry, stale: false } });
      }
      storeLater(entries);
    } catch (error) {
      // Upstream failing: the last value known is served, stale, from memory or else from the database.
      const stored = await storedEntries(chunk.filter((key) => !memory.has(key))).catch(() => new Map<string, Entry<T>>());
      for (const key of chunk) {
        const last = memory.get(key) ?? stored.get(key);
        if (last) settle(key, { result: { key, ...last, stale: true } });
        else settle(key, { error: options.unavailable((error as Error).message) });
      }
    }
  }

  function flush() {
    flushScheduled = false;
    const batch = queued;
    queued = new Map();
    fetchBatch(batch).catch((error: unknown) => {
      for (const key of batch.keys()) settle(key, { error });
    });
  }

  return {
    /** How long a value is fresh: served from memory until then, asked for again after. */
    ttlMs,
    /** Writes what is still waiting to be kept (the API calls it when it closes). */
    flushStores,
    /** The value at a coordinate; `maxAgeMs` (at most the ttl) asks for one fetched more recently (a refresh on a schedule). */
    get(coordinate: Coordinate, maxAgeMs = ttlMs): Promise<CachedResult<T>> {
      const key = coordinateKey(coordinate);
      const cached = memory.get(key);
      const hit = isFresh(cached, maxAgeMs);
      metrics.cacheLookup(options.name, hit);
      if (hit) return Promise.resolve({ key, ...cached, stale: false });
      return new Promise<CachedResult<T>>((resolve, reject) => {
        const waiters = inFlight.get(key);
        if (waiters) {
          waiters.push({ resolve, reject });
          return;
        }
        inFlight.set(key, [{ resolve, reject }]);
        queued.set(key, roundCoordinate(coordinate));
        if (maxAgeMs < ttlMs) maxAges.set(key, maxAgeMs);
        if (!flushScheduled) {
          flushScheduled = true;
          // Everything asked for while resolving this tick's fields travels together.
          setImmediate(flush);
        }
      });
    },
  };
}

export type CoordinateCache<T> = ReturnType<typeof createCoordinateCache<T>>;
