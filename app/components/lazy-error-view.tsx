import { lazy } from "react";
import { whenBrowserIdle } from "~/lib/browser-idle";

const loadErrorView = () => import("./error-view");

/**
 * The error page's view, not part of a page's first load: it loads when the browser is idle
 * (so it is there when a later navigation fails), or at once where a page is an error page
 * (the server's HTML stays on screen while hydration waits for it).
 */
export const LazyErrorView = lazy(() => loadErrorView().then(({ ErrorView }) => ({ default: ErrorView })));

/** Fetches the view when the browser is idle; returns a cancel function. */
export function preloadErrorViewWhenIdle(): () => void {
  return whenBrowserIdle(() => void loadErrorView().catch(() => undefined));
}
