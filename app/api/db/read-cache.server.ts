import type { ChangeMark, ChangeTracker } from "./change-tracker.server";

export type ReadCache<K, V> = {
  /** The value read for `key` while its tables are unchanged and `fresh(value)` holds, else a new read. */
  get<R extends V | null>(key: K, read: () => Promise<R>): Promise<V | R>;
  readonly size: number;
};

/**
 * Keeps what a read returned until one of the tables it came from is written (here or by
 * another process: see ChangeTracker). Values are shared between callers: treat them as
 * read-only. At most `maxEntries` are kept; the least recently used go first. A read that
 * returns nothing (`null`) is not kept, so unknown keys cannot fill the cache.
 */
export function createReadCache<K, V>(options: {
  changes: ChangeTracker;
  tables: readonly string[];
  maxEntries: number;
  /** A kept value that is no longer good for other reasons (it expired) is read again. */
  fresh?: (value: V) => boolean;
}): ReadCache<K, V> {
  const entries = new Map<K, { value: V; mark: ChangeMark }>();
  return {
    async get(key, read) {
      const entry = entries.get(key);
      if (entry) {
        entries.delete(key);
        if (options.changes.unchangedSince(entry.mark, options.tables) && (options.fresh?.(entry.value) ?? true)) {
          entries.set(key, entry);
          return entry.value;
        }
      }
      const mark = options.changes.mark();
      const value = await read();
      if (value === null) return value;
      entries.set(key, { value, mark });
      if (entries.size > options.maxEntries) entries.delete(entries.keys().next().value!);
      return value;
    },
    get size() {
      return entries.size;
    },
  };
}
