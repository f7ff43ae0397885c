/**
 * The value kept under `key`, or the one `compute` gives, then kept: at most `max` of them, the store cleared whole when
 * full (cheaper than tracking age; what it held is computed again as asked). `undefined` is never a kept value.
 */
export function keptValue<K, V>(values: Map<K, V>, max: number, key: K, compute: () => V): V {
  let value = values.get(key);
  if (value === undefined) {
    if (values.size >= max) values.clear();
    value = compute();
    values.set(key, value);
  }
  return value;
}
