import type { Kysely } from "kysely";
import type { ChangeMark, ChangeTracker } from "./change-tracker.server";
import { ReadLog } from "./read-log.server";
import type { Database } from "./tables";

export type ReadCache<K, V, D = Database> = {
  /**
   * The value read for `key` while its tables are unchanged and `fresh(value)` holds, else
   * a new read. `read` must run its queries on the Kysely it is given (it logs them);
   * what the value was read from goes into `log`, the caller's, whether cached or read.
   */
  get<R extends V | null>(key: K, log: ReadLog, read: (db: Kysely<D>) => Promise<R>): Promise<V | R>;
  /** What is cached, by key (for dropping what belongs to a deleted account: see user-caches.server.ts). */
  entries(): IterableIterator<[K, V]>;
  /** Drops every value for which `drop` holds. */
  forget(drop: (key: K, value: V) => boolean): void;
  readonly size: number;
};

/**
 * Caches what a read returned until one of the tables it came from is written (here or by
 * another process: see ChangeTracker). Those tables are the ones the read ran queries on,
 * logged from the Kysely it is handed. A value given from memory runs no query, so its
 * tables go into the caller's log (a cached GraphQL answer depends on them too), marked
 * as read now: they were unchanged until now.
 * A read during which a query ran outside any log (see ReadRecorder) is not cached. Values
 * are shared between callers: treat them as read-only. At most `maxEntries` are cached; the
 * least recently used go first. A read that returns nothing (`null`) is not cached, so
 * unknown keys cannot fill the cache.
 */
export function createReadCache<K, V, D = Database>(options: {
  changes: ChangeTracker;
  /** The shared Kysely, from which each read's logging one is made. */
  db: Kysely<D>;
  maxEntries: number;
  /** A cached value that is no longer good for other reasons (it expired) is read again. */
  fresh?: (value: V) => boolean;
}): ReadCache<K, V, D> {
  const { changes, db } = options;
  const entries = new Map<K, { value: V; mark: ChangeMark; tables: ReadonlySet<string> }>();
  return {
    async get(key, log, read) {
      const entry = entries.get(key);
      if (entry) {
        entries.delete(key);
        const now = changes.stillSince(entry.mark, entry.tables);
        if (now && (options.fresh?.(entry.value) ?? true)) {
          entries.set(key, entry);
          log.since(now);
          log.add(entry.tables);
          return entry.value;
        }
      }
      const own = new ReadLog();
      own.since(changes.mark());
      const unlogged = changes.reads.unlogged;
      const value = await read(changes.reads.logTo(db, own));
      log.since(own.mark!);
      log.add(own.tables);
      if (value === null || changes.reads.unlogged !== unlogged) return value;
      entries.set(key, { value, mark: own.mark!, tables: own.tables });
      if (entries.size > options.maxEntries) entries.delete(entries.keys().next().value!);
      return value;
    },
    *entries() {
      for (const [key, entry] of entries) yield [key, entry.value];
    },
    forget(drop) {
      for (const [key, entry] of entries) if (drop(key, entry.value)) entries.delete(key);
    },
    get size() {
      return entries.size;
    },
  };
}
