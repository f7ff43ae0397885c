import { lazy, memo, Suspense, useEffect, type ComponentType, type ReactNode } from "react";
import { hydrationModules } from "~/lib/hydration-modules";

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
  let waitedFor = false;
  const Part = lazy(async () => {
    // Asked for once, by the first render: during hydration, where the part then hydrates later.
    waitedFor = typeof window !== "undefined";
    if (waitedFor) pendingParts.add(Part);
    return { default: await resolve(load) };
  });
  function Hydrated(props: Props) {
    useEffect(() => {
      if (!waitedFor) return;
      waitedFor = false;
      pendingParts.delete(Part);
      if (pendingParts.size === 0) for (const settle of allHydrated.splice(0)) settle();
    }, []);
    return <Part {...props} />;
  }
  return memo(function HydratedLater(props: Props) {
    return (
      <Suspense fallback={fallback}>
        <Hydrated {...props} />
      </Suspense>
    );
  });
}

const pendingParts = new Set<unknown>();
const allHydrated: Array<() => void> = [];

/**
 * Settles once no part of the page waits to hydrate (root's `data-hydrated` marker waits for it: a
 * click on a part not yet hydrated is lost, react-dom stops it). Ask after the page's first commit.
 */
export function partsHydrated(): Promise<void> {
  return pendingParts.size === 0 ? Promise.resolve() : new Promise((resolve) => allHydrated.push(resolve));
}

/**
 * In the browser, the part's code once it and the lazy parts inside it have loaded. (Not at idle: a
 * click on a part React cannot hydrate synchronously is lost, react-dom stops it; decision 029.)
 */
function resolve<Props>(load: () => Promise<ComponentType<Props>>): Promise<ComponentType<Props>> {
  if (typeof window === "undefined") return load();
  return load().then(async (component) => (await hydrationModules(), component));
}
