import { claimForcedReload } from "./reload-guard";

export const LATEST_BUILD_URL = "/builds/latest.json";
/** Visibility changes ask at most this often. */
const CHECK_THROTTLE_MS = 60_000;
const CHECK_INTERVAL_MS = 10 * 60_000;

/**
 * Knows whether the server runs a newer build than this page. A page of an old build
 * keeps working, but its next client navigation becomes a full page load so that new
 * route modules and new server data shapes never meet old code.
 */
export function createBuildWatcher(ownBuildId: string, fetchImpl: typeof fetch = (...args) => fetch(...args)) {
  let outdated = false;
  let lastCheck = 0;
  let watching = false;

  async function check(): Promise<boolean> {
    lastCheck = Date.now();
    try {
      const response = await fetchImpl(`${LATEST_BUILD_URL}?t=${Date.now()}`, { cache: "no-store" });
      if (!response.ok) return outdated;
      const { id } = (await response.json()) as { id?: unknown };
      if (typeof id === "string" && id !== ownBuildId) outdated = true;
    } catch {
      // Offline or the server is restarting: nothing learnt.
    }
    return outdated;
  }

  return {
    check,
    isOutdated: () => outdated,
    /** Starts the background checks: on a timer, when the tab comes back, when the network does. */
    watch() {
      if (watching) return;
      watching = true;
      setInterval(() => void check(), CHECK_INTERVAL_MS);
      document.addEventListener("visibilitychange", () => {
        if (document.visibilityState === "visible" && Date.now() - lastCheck >= CHECK_THROTTLE_MS) void check();
      });
      window.addEventListener("online", () => void check());
    },
  };
}

export type BuildWatcher = ReturnType<typeof createBuildWatcher>;

/**
 * A lazy module of a replaced build is gone from the server: reload into the new one, once.
 * Imports that recover on their own (`handledElsewhere`, e.g. a locale that falls back to
 * English) are left to do so: a reload would not bring them back and could loop.
 */
export function reloadOnPreloadError(handledElsewhere?: RegExp) {
  window.addEventListener("vite:preloadError", (event) => {
    const failure = (event as Event & { payload?: unknown }).payload;
    if (handledElsewhere && failure instanceof Error && handledElsewhere.test(failure.message)) return;
    if (!claimForcedReload()) return;
    event.preventDefault();
    window.location.reload();
  });
}
