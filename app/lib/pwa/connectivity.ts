import { useEffect, useSyncExternalStore } from "react";
import { whenBrowserIdle } from "../browser-idle";

const PROBE_URL = "/healthz";
const RETRY_MS = 15_000;

/**
 * Whether the app can reach its server. `navigator.onLine` alone misses the common case
 * of a network that works while the server does not (the page then came from the
 * service worker's cache), so the server is asked directly; reachable until known otherwise.
 */
function createConnectivity() {
  let reachable = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let started = false;
  const listeners = new Set<() => void>();

  function set(next: boolean) {
    clearTimeout(timer);
    // While unreachable, ask again now and then: nothing else tells us the server is back.
    if (!next) timer = setTimeout(() => void probe(), RETRY_MS);
    if (next === reachable) return;
    reachable = next;
    for (const listener of listeners) listener();
  }

  async function probe(): Promise<boolean> {
    let ok = navigator.onLine;
    if (ok) {
      try {
        // /healthz is a readiness check: 503 while the server's database is down, when nothing
        // but cached data can be shown anyway, so that counts as unreachable too.
        ok = (await fetch(PROBE_URL, { cache: "no-store" })).ok;
      } catch {
        ok = false;
      }
    }
    set(ok);
    return ok;
  }

  return {
    isReachable: () => reachable,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    probe,
    /** A request just failed without an answer: believe it, then check. */
    reportUnreachable() {
      set(false);
    },
    start() {
      if (started) return;
      started = true;
      void probe();
      window.addEventListener("online", () => void probe());
      window.addEventListener("offline", () => set(false));
    },
  };
}

export const connectivity = createConnectivity();

export function useConnectivity(): boolean {
  // The first probe is a request: at idle, not among hydration's effects (issue 35's blocking time).
  useEffect(() => whenBrowserIdle(() => connectivity.start()), []);
  return useSyncExternalStore(connectivity.subscribe, connectivity.isReachable, () => true);
}
