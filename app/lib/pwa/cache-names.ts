/**
 * Runtime caches of the service worker. The page clears the private ones when the
 * account changes, so the next person on this browser never sees them offline.
 */
export const RUNTIME_CACHES = {
  pages: "weatherbot-pages",
  routeData: "weatherbot-route-data",
} as const;

export const PRIVATE_CACHES = [RUNTIME_CACHES.pages, RUNTIME_CACHES.routeData] as const;

/** Precached fallback for a page that was never visited online. */
export const OFFLINE_PAGE_URL = "/offline.html";
