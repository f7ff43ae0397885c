/**
 * The value cached under `key`, or the one `compute` gives, then cached: at most `max` of them, the cache cleared whole
 * when full (cheaper than tracking recency; what it held is computed again as asked). `undefined` is never a cached value.
 * Not lru-cache, which the server uses: this module ships in the browser's first load too, where lru-cache would add
 * about 5.9 KB gzipped to a budget of 180 KB that is at 179.9 KB.
 */
export function cachedValue<K, V>(cache: Map<K, V>, max: number, key: K, compute: () => V): V {
  let value = cache.get(key);
  if (value === undefined) {
    if (cache.size >= max) cache.clear();
    value = compute();
    cache.set(key, value);
  }
  return value;
}
