import { useEffect, useLayoutEffect } from "react";

/**
 * When React has hydrated the whole page: the root's first pass committed (root.tsx) and every part whose boundary
 * hydrates in a pass of its own (the signed-in dashboard) has hydrated too (decision 018). A day's detail in the
 * dashboard is not waited for: its chunk loads only then, and the page's data would stand still for that fetch too.
 * It hydrates from the cache, which answers its query as the server did (cache.ts, `Query.place`).
 *
 * Until then the page's data must stand still: a part still waiting to hydrate reads the GraphQL cache as it
 * hydrates, and anything written to it in between (a message the live stream delivered, entries of the persisted
 * offline cache) makes it render text the server did not write (React #418), and React renders the part again.
 */
const waiting = new Set<string>();
let rootCommitted = false;
let settle: () => void = () => undefined;

/** The signed-in home's dashboard (app/routes/home.tsx). */
export const DASHBOARD_PART = "dashboard";

export const pageHydration: Promise<void> = new Promise<void>((resolve) => (settle = resolve));

// After the current commit's effects: a part's own effect and the root's may run in either order within one commit.
function settleWhenDone() {
  queueMicrotask(() => {
    if (rootCommitted && waiting.size === 0) settle();
  });
}

/** A part the browser hydrates in a pass of its own, from the commit that holds its boundary. */
export function partWaiting(part: string) {
  waiting.add(part);
}

/** The part has hydrated, or never will (it left the page: a failed chunk's error page, a navigation). */
export function partDone(part: string) {
  waiting.delete(part);
  settleWhenDone();
}

/** The root's first pass has committed (its first effect). */
export function rootHydrated() {
  rootCommitted = true;
  settleWhenDone();
}

/** In the component that renders a part's boundary: while `rendered`, the page waits for the part (from this commit). */
export function useWaitForPart(part: string, rendered: boolean) {
  useLayoutEffect(() => {
    if (!rendered) return;
    partWaiting(part);
    return () => partDone(part);
  }, [part, rendered]);
}

/** In the part itself: it has hydrated (or, rendered in the browser, mounted). */
export function usePartHydrated(part: string) {
  useEffect(() => partDone(part), [part]);
}
