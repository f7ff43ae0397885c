import { PRIVATE_CACHES, RUNTIME_CACHES } from "./cache-names";

/** Pages kept for offline use from the first visit on (the first load never passes through the worker). */
const OFFLINE_PAGES = ["/", "/settings"];

/** Saves the app's pages (and this one) for offline use, as the worker would have on a visit. */
export async function seedOfflinePages(current = location.pathname + location.search) {
  const cache = await caches.open(RUNTIME_CACHES.pages);
  const urls = new Set([current, ...OFFLINE_PAGES]);
  await Promise.all([...urls].map((url) => cache.add(url).catch(() => undefined)));
}

/**
 * On log in and log out: forgets the previous account's pages and data kept for offline
 * use, and keeps the new session's pages instead.
 */
export async function replaceOfflinePages() {
  if (typeof caches === "undefined") return;
  try {
    await Promise.all(PRIVATE_CACHES.map((name) => caches.delete(name)));
  } catch (error) {
    // Logging in or out goes on: a cache the browser will not drop is logged, not thrown.
    console.warn("Could not drop the previous session's offline pages:", error);
    return;
  }
  // Not awaited: the next page need not wait for two more renders.
  if (navigator.serviceWorker?.controller) void seedOfflinePages("/");
}
