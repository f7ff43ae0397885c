import type { ChangeMark, ChangeTracker } from "./change-tracker.server";
import { ReadLog } from "./read-log.server";

export type ReadCache<K, V> = {
  /** The value read for `key` while its tables are unchanged and `fresh(value)` holds, else a new read. */
  get<R extends V | null>(key: K, read: () => Promise<R>): Promise<V | R>;
  readonly size: number;
};

/**
 * Keeps what a read returned until one of the tables it came from is written (here or by
 * another process: see ChangeTracker). Those tables are the ones the read ran queries on
 * (logged as it runs). A value given from memory runs no
 * query, so its tables are passed on to the computation under way (a kept GraphQL
 * answer depends on them too). Values are shared between callers: treat them as
 * read-only. At most `maxEntries` are kept; the least recently used go first. A read that
 * returns nothing (`null`) is not kept, so unknown keys cannot fill the cache.
 */
export function createReadCache<K, V>(options: {
  changes: ChangeTracker;
  maxEntries: number;
  /** A kept value that is no longer good for other reasons (it expired) is read again. */
  fresh?: (value: V) => boolean;
}): ReadCache<K, V> {
  const { changes } = options;
  const entries = new Map<K, { value: V; mark: ChangeMark; tables: ReadonlySet<string> }>();
  return {
    async get(key, read) {
      const entry = entries.get(key);
      if (entry) {
        entries.delete(key);
        if (changes.unchangedSince(entry.mark, entry.tables) && (options.fresh?.(entry.value) ?? true)) {
          entries.set(key, entry);
          changes.reads.note(entry.tables);
          return entry.value;
        }
      }
      const mark = changes.mark();
      const log = new ReadLog();
      const value = await changes.reads.run(log, read);
      changes.reads.note(log.tables);
      if (value === null) return value;
      entries.set(key, { value, mark, tables: log.tables });
      if (entries.size > options.maxEntries) entries.delete(entries.keys().next().value!);
      return value;
    },
    get size() {
      return entries.size;
    },
  };
}
