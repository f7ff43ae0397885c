import { makeDefaultStorage } from "@urql/exchange-graphcache/default-storage";
import type { SessionStorage } from "./browser-client";

const PREFIX = "weatherbot-cache-";

let markHydrated: () => void = () => undefined;
const hydrated = new Promise<void>((resolve) => (markHydrated = resolve));

/** React has hydrated the page (root.tsx): the persisted cache may now join the one the server's data filled. */
export function pageHydrated() {
  markHydrated();
}

/**
 * The store has been read, with the mutations kept offline by an earlier page: the offline
 * exchange keeps a mutation made offline only from now on, so mutations wait until then
 * (hold-mutations.ts, after it in cache.ts). Marked as <html data-offline-queue="ready">.
 */
function markOfflineQueueReady() {
  document.documentElement.dataset.offlineQueue = "ready";
}

/**
 * The IndexedDB store a session's cache persists in (7 days), one per session. Stores of
 * other sessions on this browser (an account logged out elsewhere, an expired session)
 * are deleted: only the account signed in here may find its data here. Persisted entries
 * never replace fresher ones (graphcache fills only what is missing).
 */
export function offlineStorageFor(key: string | null): SessionStorage | undefined {
  if (typeof indexedDB === "undefined") return undefined;
  const name = PREFIX + (key ? key.slice(0, 16) : "guest");
  void indexedDB
    .databases?.()
    .then((databases) => {
      for (const { name: other } of databases) if (other?.startsWith(PREFIX) && other !== name) indexedDB.deleteDatabase(other);
    })
    .catch(() => undefined);
  const storage = makeDefaultStorage({ idbName: name, maxAge: 7, onCacheHydrated: markOfflineQueueReady });
  // Until hydration ends, the page renders from the server's data alone: the offline exchange
  // holds queries back while it reads its store, and a re-render then would not match the HTML.
  return { ...storage, readData: () => hydrated.then(() => storage.readData()) };
}
