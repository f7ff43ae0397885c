import type { Page } from "@playwright/test";

/**
 * The data the page's origin keeps on the device for later, as one text to search: every
 * value of every IndexedDB database and every cached answer in Cache Storage but the
 * worker's copies of the build's files (/assets/), which hold no one's data.
 */
export function storedOnDevice(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const texts: string[] = [];
    for (const { name } of await indexedDB.databases()) {
      if (!name) continue;
      const db = await new Promise<IDBDatabase | null>((resolve, reject) => {
        const request = indexedDB.open(name);
        // Deleted by the page since it was listed: reading must not create it again.
        request.onupgradeneeded = () => request.transaction!.abort();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => (request.error?.name === "AbortError" ? resolve(null) : reject(request.error));
      });
      if (!db) continue;
      for (const store of Array.from(db.objectStoreNames)) {
        const values = await new Promise<unknown[]>((resolve, reject) => {
          const request = db.transaction(store, "readonly").objectStore(store).getAll();
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
        texts.push(JSON.stringify(values));
      }
      db.close();
    }
    for (const cacheName of await caches.keys()) {
      const cache = await caches.open(cacheName);
      for (const request of await cache.keys()) {
        if (new URL(request.url).pathname.startsWith("/assets/")) continue;
        const response = await cache.match(request);
        if (response) texts.push(await response.text());
      }
    }
    return texts.join("\n");
  });
}
