/**
 * When React has hydrated the whole page: the first pass committed (root.tsx) and every part hydrated in a pass of
 * its own (hydrate-later.tsx) has hydrated too (decision 029).
 *
 * Until then the page's data must stand still: a part still waiting to hydrate reads the GraphQL cache as it
 * hydrates, and anything written to it in between (a message the live stream delivered, entries of the persisted
 * offline cache) makes it render text the server did not write (React error #418) and render the part again.
 * So the persisted cache is read, and network results reach the cache, only from then on.
 */
const waiting = new Set<unknown>();
let rootCommitted = false;
let settle: () => void = () => undefined;

export const pageHydration: Promise<void> = new Promise<void>((resolve) => (settle = resolve));

// Checked after the current commit's effects: StrictMode's rehearsal of an unmount in development would otherwise
// end the wait that the effect's second run starts again.
function settleWhenDone() {
  queueMicrotask(() => {
    if (rootCommitted && waiting.size === 0) settle();
  });
}

/** A part the browser hydrates (or renders) in a pass of its own, from the commit that holds its boundary. */
export function partWaiting(part: unknown) {
  waiting.add(part);
}

/** The part has hydrated, or never will (it left the page: a failed load's error boundary, a navigation). */
export function partDone(part: unknown) {
  waiting.delete(part);
  settleWhenDone();
}

/** The page's first hydration pass has committed (root's first effect). */
export function rootHydrated() {
  rootCommitted = true;
  settleWhenDone();
}
