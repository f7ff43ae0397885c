import { lazy, memo, Suspense, type ComponentType } from "react";
import { browserIdleOrIntent } from "~/lib/browser-idle";

/**
 * A part of the page the first screen can do without, hydrated after the rest (issue 35: the page
 * must become usable fast, not only paint fast; decision 029). The server renders it whole; in the
 * browser its code is fetched at once, but the lazy component resolves only once the browser is
 * idle or the person starts to interact, so React hydrates the rest first and leaves this part's
 * server HTML in place until then (selective hydration: no fallback, no layout shift).
 *
 * The part carries its own Suspense boundary, memoised: a boundary still waiting to hydrate that
 * receives new props is rendered again from scratch (its server HTML dropped), so a parent's
 * re-render with the same props must not reach it.
 */
export function lazyHydrated<Props extends object>(load: () => Promise<ComponentType<Props>>) {
  const Part = typeof window === "undefined" ? lazy(async () => ({ default: await load() })) : lazyAfterIdle(load);
  return memo(function HydratedLater(props: Props) {
    return (
      <Suspense fallback={null}>
        <Part {...props} />
      </Suspense>
    );
  });
}

function lazyAfterIdle<Props extends object>(load: () => Promise<ComponentType<Props>>) {
  const code = load();
  // A chunk that fails to load fails the part when it renders (the route's error view), not before.
  code.catch(() => undefined);
  return lazy(async () => {
    const [component] = await Promise.all([code, browserIdleOrIntent()]);
    return { default: component };
  });
}
