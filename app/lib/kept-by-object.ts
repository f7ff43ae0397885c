import { cachedValue } from "~/shared/bounded-cache";

/** How many values one object keeps (one per reader's settings, hour, ...) before it starts again. */
export const KEPT_PER_OBJECT_MAX = 16;

/**
 * `derive`, with what it made kept as long as the object lives, by a key that names everything else it reads (its
 * other arguments). For values derived from data that never changes once made: the server's kept answers are shared
 * by every page that shows them (decision 017), so the second page's card reads the texts and paths the first one
 * made. In the browser it only derives.
 */
export function keptByObject<O extends object, A extends unknown[], V extends NonNullable<unknown> | null>(
  derive: (object: O, ...args: A) => V,
): (object: O, key: string, ...args: A) => V {
  // The browser renders a card again only when something changed, most often its answer: there it derives anew, and
  // the first load carries none of this.
  if (!import.meta.env.SSR) return (object, _key, ...args) => derive(object, ...args);
  const kept = new WeakMap<O, Map<string, V>>();
  return (object, key, ...args) => {
    let values = kept.get(object);
    if (values === undefined) kept.set(object, (values = new Map()));
    return cachedValue(values, KEPT_PER_OBJECT_MAX, key, () => derive(object, ...args));
  };
}
