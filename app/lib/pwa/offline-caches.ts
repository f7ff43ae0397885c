import { PRIVATE_CACHES, RUNTIME_CACHES } from "./cache-names";
import { offlineCopyRequest } from "./offline-copy";

/** Pages cached for offline use from the first visit on (the first load never passes through the worker). */
const OFFLINE_PAGES = ["/", "/settings"];

/** The status the server answered this document with (0 where the browser does not say). */
function documentStatus(): number {
  const [navigation] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
  return navigation?.responseStatus ?? 0;
}

/**
 * Saves the app's pages (and this one, unless it is an error page: the browser logs the
 * refused copy as an error) for offline use, as the worker would have on a visit.
 */
export async function seedOfflinePages(current = location.pathname + location.search) {
  const cache = await caches.open(RUNTIME_CACHES.pages);
  const urls = new Set(OFFLINE_PAGES);
  if (documentStatus() < 400) urls.add(current);
  await Promise.all([...urls].map((url) => cache.add(offlineCopyRequest(url)).catch(() => undefined)));
}

/**
 * On log in and log out: forgets the previous account's pages and data cached for offline
 * use, and caches the new session's pages instead.
 */
export async function replaceOfflinePages() {
  if (typeof caches === "undefined") return;
  const dropped = await Promise.allSettled(PRIVATE_CACHES.map((name) => caches.delete(name)));
  const failure = dropped.find((result) => result.status === "rejected");
  // Logging in or out goes on: a cache the browser will not drop is logged, not thrown.
  if (failure) console.warn("Could not drop the previous session's offline pages:", failure.reason);
  // Even then the new session's pages take the places of the ones cached offline, so those are
  // not the previous account's. Not awaited: the next page need not wait for two more renders.
  if (navigator.serviceWorker?.controller) void seedOfflinePages("/");
}
