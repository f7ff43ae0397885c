import { cleanupOutdatedCaches, precacheAndRoute } from "workbox-precaching";
import { installOfflineRoutes } from "./offline-routes";
import { installPushHandlers } from "./push-handlers";

declare let self: ServiceWorkerGlobalScope;

// Hashed assets, icons, locale chunks and the offline page; never server-rendered pages
// (a precached page answers cache-first and would freeze).
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
installOfflineRoutes();
installPushHandlers(self);

// registerType "prompt": a new worker waits until the user accepts the update toast.
self.addEventListener("message", (event) => {
  if ((event.data as { type?: string } | null)?.type === "SKIP_WAITING") void self.skipWaiting();
});
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
