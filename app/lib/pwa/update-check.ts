/** docs/product-constants.md: the worker looks for an update every hour, only while online. */
export const UPDATE_CHECK_INTERVAL_MS = 3600 * 1000;
export const SERVICE_WORKER_URL = "/sw.js";

/**
 * Looks for a new worker: `/sw.js` is fetched first so that an offline or failing server
 * does not count as a check; a 200 does, and then the browser compares the worker.
 */
export async function checkForUpdate(
  registration: Pick<ServiceWorkerRegistration, "update">,
  fetchImpl: typeof fetch = (...args) => fetch(...args),
  online = () => navigator.onLine,
): Promise<boolean> {
  if (!online()) return false;
  try {
    const response = await fetchImpl(SERVICE_WORKER_URL, { cache: "no-store", headers: { "cache-control": "no-cache" } });
    if (response.status !== 200) return false;
    // The 200 is the check; the browser's comparison (and any download) is not waited for,
    // so a slow or failing update() cannot hold back the next check.
    registration.update().catch(() => undefined);
    return true;
  } catch {
    return false;
  }
}
