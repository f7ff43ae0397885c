import { pageHydration } from "../page-hydration";
import type { SessionStorage } from "./browser-client";

const PREFIX = "weatherbot-cache-";

/**
 * The store has been read, with the mutations kept offline by an earlier page: the offline
 * exchange keeps a mutation made offline only from now on, so mutations wait until then
 * (hold-mutations.ts, after it in cache.ts). Marked as <html data-offline-queue="ready">.
 */
function markOfflineQueueReady() {
  document.documentElement.dataset.offlineQueue = "ready";
}

/**
 * The IndexedDB store's code: nothing reads or writes the store before the page has hydrated
 * (graphcache's writes while it does wait for it), so it loads then, after the first paint.
 */
const defaultStorage = pageHydration.then(() => import("@urql/exchange-graphcache/default-storage"));

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
  // Until hydration ends, the page renders from the server's data alone: the offline exchange
  // holds queries back while it reads its store, and a re-render then would not match the HTML.
  const storage = defaultStorage.then(({ makeDefaultStorage }) => makeDefaultStorage({ idbName: name, maxAge: 7 }));
  // Each call goes on in the order it was made. Code that cannot load is a store that cannot open: nothing kept.
  return {
    readData: () => storage.then((store) => store.readData()).catch(() => ({})),
    writeData: (entries) => storage.then((store) => store.writeData(entries)).catch(() => undefined),
    readMetadata: () => storage.then((store) => store.readMetadata!()).catch(() => null),
    writeMetadata: (requests) => void storage.then((store) => store.writeMetadata!(requests)).catch(() => undefined),
    onOnline: (callback) => void storage.then((store) => store.onOnline!(callback)).catch(() => undefined),
    onCacheHydrated: markOfflineQueueReady,
    clear: () => storage.then((store) => store.clear()),
  };
}
