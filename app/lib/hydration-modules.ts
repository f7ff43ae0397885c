import { lazy, type ComponentType } from "react";

type Module<Props> = { default: ComponentType<Props> };

const pending: Array<Promise<unknown>> = [];

/** Whether the server-rendered page holds an element of this test id (asked before hydration). */
export const onPage = (testId: string) => document.querySelector(`[data-testid="${testId}"]`) !== null;

/**
 * Settles once every lazy module the server rendered into this page has loaded (entry.client
 * hydrates then), nested ones too: a module loaded here registers the lazy modules it holds as it runs.
 */
export async function hydrationModules(): Promise<void> {
  for (let count = -1; count !== pending.length;) {
    count = pending.length;
    await Promise.all(pending);
  }
}

/**
 * React.lazy for a module the server renders whole into some pages (decision 018). When the page
 * holds it (`onPage`, asked once in the browser as the module loads), its code is loaded before
 * hydration starts and the lazy component then resolves synchronously: React hydrates it with
 * the rest. A plain lazy suspends at hydration instead, and the first update from above (a
 * query's result arriving) makes React drop its server HTML, show the fallback and render it
 * again from scratch: a layout shift and the page's work done twice.
 */
export function lazyServerRendered<Props>(load: () => Promise<Module<Props>>, onPage: () => boolean) {
  let loaded: Module<Props> | undefined;
  if (typeof document !== "undefined" && onPage()) {
    // A chunk that fails to load fails the part as it renders, as a plain lazy would.
    pending.push(
      load().then(
        (module) => (loaded = module),
        () => undefined,
      ),
    );
  }
  // A thenable that calls back at once: React.lazy then has the module without suspending.
  const ready = (module: Module<Props>) => ({ then: (resolve: (value: Module<Props>) => void) => resolve(module) });
  return lazy(() => (loaded ? (ready(loaded) as unknown as Promise<Module<Props>>) : load()));
}
