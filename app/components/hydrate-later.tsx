import { lazy, type ComponentType } from "react";
import { browserIdleOrIntent } from "~/lib/browser-idle";

/**
 * A part of the page the first screen can do without, hydrated after the rest (issue 35: the page
 * must become usable fast, not only paint fast). The server renders it whole; in the browser its
 * code is fetched at once, but the lazy component resolves only once the browser is idle or the
 * person starts to interact, so React hydrates the rest first and leaves this part's server HTML
 * in place until then (selective hydration: no fallback, no layout shift). Render it inside a
 * Suspense boundary of its own: that boundary is the unit React hydrates later.
 */
export function lazyHydrated<Props extends object>(load: () => Promise<ComponentType<Props>>) {
  if (typeof window === "undefined") return lazy(async () => ({ default: await load() }));
  const code = load();
  // A chunk that fails to load fails the boundary when it renders (the route's error view), not before.
  code.catch(() => undefined);
  return lazy(async () => {
    const [component] = await Promise.all([code, browserIdleOrIntent()]);
    return { default: component };
  });
}
