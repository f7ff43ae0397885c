import type { APIRequestContext, Page, Route } from "@playwright/test";
import { expect, gotoHydrated } from "../fixtures";
import { accountWithPlace, signInBrowser } from "./graphql";

/**
 * Waits until the service worker controls the page and has kept both pages for offline
 * use: after that the page's own background work (worker install, page seeding) is done.
 */
export async function waitForOfflineReady(page: Page) {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15_000 });
  await expect
    .poll(() =>
      page.evaluate(async () =>
        (await (await caches.open("weatherbot-pages")).keys()).map((request) => new URL(request.url).pathname).sort(),
      ),
    )
    .toEqual(["/", "/settings"]);
}

/**
 * Waits until the page has read its kept GraphQL cache and the mutations queued in it
 * (app/lib/graphql/offline-storage.ts). A fresh page is hydrated first and reads the store
 * after; a change made in between waits for that read (app/lib/graphql/hold-mutations.ts).
 */
export async function waitForOfflineQueue(page: Page) {
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await expect(page.locator("html")).toHaveAttribute("data-offline-queue", "ready");
}

/**
 * Takes the browser offline and waits until the page itself finds the network gone: it
 * knows it is offline, and a request of its own fails (the app's offline banner alone
 * proves only the first).
 */
const isGraphQL = (url: URL) => url.pathname === "/graphql";
const disconnected = (route: Route) => route.abort("internetdisconnected");

/**
 * Offline, as the page sees it. Chromium's offline emulation can reach a document loaded from
 * the worker a moment after its first requests (a queued mutation re-sent at load was seen
 * reaching the server), so the API is also cut at the context, from the first request on.
 */
export async function goOffline(page: Page) {
  await page.context().route(isGraphQL, disconnected);
  await page.context().setOffline(true);
  await expect.poll(() => page.evaluate(() => navigator.onLine)).toBe(false);
  await expect
    .poll(() =>
      page.evaluate(() =>
        fetch("/healthz", { cache: "no-store" }).then(
          () => "reached",
          () => "unreachable",
        ),
      ),
    )
    .toBe("unreachable");
}

/** Back online: the emulation and the cut that goOffline made both end. */
export async function goOnline(page: Page) {
  await page.context().unroute(isGraphQL, disconnected);
  await page.context().setOffline(false);
}

/** An account with a place and one briefing in its inbox, signed in; its home page seen once online, kept by the worker. */
export async function signedInOnlineOnce(page: Page, request: APIRequestContext, baseURL: string, placeLabel: string) {
  const account = await accountWithPlace(request, baseURL, placeLabel);
  const message = await account.sendBriefing();
  await signInBrowser(page.context(), baseURL, account.token);
  await gotoHydrated(page, "/");
  await expect(page.getByRole("heading", { name: placeLabel, exact: true })).toBeVisible();
  await waitForOfflineReady(page);
  await waitForOfflineQueue(page);
  return { account, message };
}

type HeldWindow = Window & { __releaseKeptCache?: () => void };

/**
 * Holds the kept GraphQL cache's IndexedDB unopened on the next full load of `pathname`,
 * until `release()`: the page hydrates, but has not read its store (nor the queue kept in
 * it) yet. A loaded machine allows that order; this forces it. Once only per tab.
 */
export async function holdKeptCacheUnread(page: Page, pathname: string) {
  await page.addInitScript((target) => {
    if (location.pathname !== target || sessionStorage.getItem("kept-cache-held")) return;
    sessionStorage.setItem("kept-cache-held", "1");
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    (window as HeldWindow).__releaseKeptCache = release;
    const open = IDBFactory.prototype.open;
    IDBFactory.prototype.open = function (this: IDBFactory, name: string, version?: number) {
      const opening = open.call(this, name, version);
      if (!name.startsWith("weatherbot-cache-")) return opening;
      // The page's success handler hears of the open store only once the test lets it.
      let onsuccess: ((this: IDBRequest, event: Event) => unknown) | null = null;
      Object.defineProperty(opening, "onsuccess", { configurable: true, get: () => onsuccess, set: (handler) => (onsuccess = handler) });
      opening.addEventListener("success", (event) => void gate.then(() => onsuccess?.call(opening, event)));
      return opening;
    };
  }, pathname);
  return {
    release: () => page.evaluate(() => (window as HeldWindow).__releaseKeptCache!()),
  };
}
