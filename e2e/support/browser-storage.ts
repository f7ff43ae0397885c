import type { Page } from "@playwright/test";

/**
 * The data the page's origin keeps on the device for later, as one text to search: every
 * value of every IndexedDB database and every page or JSON answer in Cache Storage (the
 * worker's copies of scripts and styles hold no one's data).
 */
export function storedOnDevice(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const texts: string[] = [];
    for (const { name } of await indexedDB.databases()) {
      if (!name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(name);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
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
        const response = await cache.match(request);
        if (/html|json/.test(response?.headers.get("content-type") ?? "")) texts.push(await response!.text());
      }
    }
    return texts.join("\n");
  });
}
