import { ExpirationPlugin } from "workbox-expiration";
import { matchPrecache } from "workbox-precaching";
import { registerRoute } from "workbox-routing";
import { NetworkFirst } from "workbox-strategies";
import { OFFLINE_PAGE_URL, RUNTIME_CACHES } from "../lib/pwa/cache-names";

/**
 * How long a navigation waits for the server before the cached page is shown: long enough for a
 * slow mobile answer, short enough that a dead connection does not look like a hung app.
 */
const NETWORK_TIMEOUT_SECONDS = 3;

function isOwnPage(url: URL): boolean {
  // Test hooks and resource routes are never pages worth caching offline; nor are the pages a mail's link opens,
  // whose URL carries a token (and which need the server anyway).
  return (
    url.origin === self.location.origin &&
    !/^\/(__test|resources|graphql|builds|reset-password|confirm-email|unsubscribe)\b/.test(url.pathname)
  );
}

/**
 * Navigations and single-fetch data go to the network first, so an online user always sees
 * fresh pages; the last good answer is cached for offline use, and a page never visited
 * online falls back to the branded offline page.
 */
export function installOfflineRoutes() {
  const pages = new NetworkFirst({
    cacheName: RUNTIME_CACHES.pages,
    networkTimeoutSeconds: NETWORK_TIMEOUT_SECONDS,
    plugins: [new ExpirationPlugin({ maxEntries: 30 })],
  });
  registerRoute(
    ({ request, url }) => request.mode === "navigate" && isOwnPage(url),
    async (options) => {
      try {
        const response = await pages.handle(options);
        if (response) return response;
      } catch {
        // Neither the network nor the cache had it: fall through to the offline page.
      }
      return (await matchPrecache(OFFLINE_PAGE_URL)) ?? Response.error();
    },
  );
  registerRoute(
    ({ request, url }) => request.method === "GET" && isOwnPage(url) && url.pathname.endsWith(".data"),
    new NetworkFirst({
      cacheName: RUNTIME_CACHES.routeData,
      networkTimeoutSeconds: NETWORK_TIMEOUT_SECONDS,
      plugins: [new ExpirationPlugin({ maxEntries: 60 })],
    }),
  );
}
