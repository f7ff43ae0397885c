import { Workbox } from "workbox-window";
import { seedOfflinePages } from "./offline-caches";
import { checkForUpdate, SERVICE_WORKER_URL, UPDATE_CHECK_INTERVAL_MS } from "./update-check";
import type { PwaStore } from "./pwa-state";

/**
 * Registers the service worker (registerType "prompt": a new version waits until the user
 * accepts it) and keeps the store's flags current.
 */
export async function registerServiceWorker(store: PwaStore) {
  if (!("serviceWorker" in navigator)) return;
  const wasControlled = Boolean(navigator.serviceWorker.controller);
  const workbox = new Workbox(SERVICE_WORKER_URL, { scope: "/" });

  workbox.addEventListener("waiting", () => {
    store.offerUpdate(() => {
      workbox.addEventListener("controlling", () => window.location.reload());
      workbox.messageSkipWaiting();
    });
  });

  let registration: ServiceWorkerRegistration | undefined;
  try {
    registration = await workbox.register();
  } catch (error) {
    store.set({ registrationError: error instanceof Error ? error.message : String(error) });
    return;
  }
  if (!registration) return;
  await navigator.serviceWorker.ready;
  store.set({ activated: true, offlineReady: true });
  if (!wasControlled) void seedOfflinePages();

  let lastCheck = Date.now();
  // One check at a time: the tab coming back into view during the hourly one joins it.
  let checking: Promise<void> | null = null;
  const check = () => {
    // A check counts from when it was asked for: a slow answer must not move the next one later.
    const startedAt = Date.now();
    return (checking ??= checkForUpdate(registration)
      .then((checked) => {
        if (checked) lastCheck = startedAt;
      })
      .finally(() => (checking = null)));
  };
  setInterval(check, UPDATE_CHECK_INTERVAL_MS);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && Date.now() - lastCheck >= UPDATE_CHECK_INTERVAL_MS) void check();
  });
}
