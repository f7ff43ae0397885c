import { lazy, memo, Suspense, useEffect, useLayoutEffect, useState, type ComponentType, type ReactNode } from "react";
import { hydrationModules } from "~/lib/hydration-modules";
import { partDone, partWaiting } from "~/lib/page-hydration";

/**
 * A part of the page hydrated in a pass of its own, after the rest (issue 35: the page must become
 * usable fast, not only paint fast; decision 029). The server renders it whole; in the browser
 * React hydrates the rest first and leaves this part's server HTML in place until its lazy
 * component resolves (selective hydration: no fallback, no layout shift, and its work in tasks
 * of its own rather than in one long hydration).
 *
 * The part carries its own Suspense boundary, memoised: a boundary still waiting to hydrate that
 * receives new props is rendered again from scratch (its server HTML dropped), so a parent's
 * re-render with the same props must not reach it. The fallback shows only where the browser
 * renders the part itself (a client-side navigation).
 */
export function lazyHydrated<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
  { fallback = null }: { fallback?: ReactNode } = {},
) {
  const Part = lazy(async () => ({ default: await resolve(load) }));
  function Hydrated({ token, ...props }: Props & { token: object }) {
    useEffect(() => partDone(token), [token]);
    return <Part {...(props as Props)} />;
  }
  return memo(function HydratedLater(props: Props) {
    const [token] = useState(() => ({}));
    // In the first commit, before root's effect marks the page hydrated: React hydrates a dehydrated boundary's
    // content in a later pass, so the part itself is not even asked for by then. An unmount (a failed load's error
    // boundary, a navigation away) lets the page go on without it.
    useLayoutEffect(() => {
      partWaiting(token);
      return () => partDone(token);
    }, [token]);
    return (
      <Suspense fallback={fallback}>
        <Hydrated token={token} {...props} />
      </Suspense>
    );
  });
}

/**
 * In the browser, the part's code once it and the lazy parts inside it have loaded. (Not at idle: a
 * click on a part React cannot hydrate synchronously is lost, react-dom stops it; decision 029.)
 */
function resolve<Props>(load: () => Promise<ComponentType<Props>>): Promise<ComponentType<Props>> {
  if (typeof window === "undefined") return load();
  return load().then(async (component) => (await hydrationModules(), component));
}
