import type { APIRequestContext, Page, Worker } from "@playwright/test";
import { expect, gotoHydrated } from "../fixtures";
import { accountWithPlace, signInBrowser } from "./graphql";

/**
 * Waits until the service worker controls the page and has cached both pages for offline
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
 * Waits until the page has read its persisted GraphQL cache and the mutations queued in it
 * (app/lib/graphql/offline-storage.ts). A fresh page is hydrated first and reads the store
 * after; a change made in between waits for that read (app/lib/graphql/hold-mutations.ts).
 */
export async function waitForOfflineQueue(page: Page) {
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await expect(page.locator("html")).toHaveAttribute("data-offline-queue", "ready");
}

const GRAPHQL_CUT = "e2e-graphql-cut";

/**
 * While localStorage holds the flag, the page's fetches of /graphql fail as a dead network's
 * do. Installed in every document of the context, before the app's scripts.
 */
function cutGraphQLWhileFlagged(flag: string) {
  const page = window as Window & { __graphqlCut?: true };
  if (page.__graphqlCut) return;
  page.__graphqlCut = true;
  const networkFetch = window.fetch;
  window.fetch = function (input: RequestInfo | URL, init?: RequestInit) {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    if (url.pathname === "/graphql" && localStorage.getItem(flag)) return Promise.reject(new TypeError("Failed to fetch"));
    return networkFetch.call(this, input, init);
  };
}

/**
 * Takes the browser offline and waits until the page itself finds the network gone: it knows
 * it is offline, and a request of its own fails (the app's offline banner alone proves only
 * the first). Chromium's offline emulation and Playwright's routes both let through, now and
 * then, a request of a document the worker served (the fetch falls back from the worker to the
 * network): a queued mutation re-sent at an offline full load reached the server in CI, with
 * both in place. So the API is cut in the page itself, from its first script on.
 */
export async function goOffline(page: Page) {
  await page.context().addInitScript(cutGraphQLWhileFlagged, GRAPHQL_CUT);
  await page.evaluate(cutGraphQLWhileFlagged, GRAPHQL_CUT);
  await page.evaluate((flag) => localStorage.setItem(flag, "1"), GRAPHQL_CUT);
  await page.context().setOffline(true);
  await expect.poll(() => page.evaluate(() => navigator.onLine)).toBe(false);
  await waitUntilServerUnreachable(page);
}

/** Waits until a request of the page's own fails: the network is gone for it, not only in its flag. */
export async function waitUntilServerUnreachable(page: Page) {
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

/** Back online: the cut ends before the emulation does, so the page's "online" flush gets through. */
export async function goOnline(page: Page) {
  await page.evaluate((flag) => localStorage.removeItem(flag), GRAPHQL_CUT);
  await page.context().setOffline(false);
}

/** An account with a place and one briefing in its inbox, signed in; its home page seen once online, cached by the worker. */
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

type HeldWindow = Window & { __releasePersistedCache?: () => void };

/**
 * Holds the persisted GraphQL cache's IndexedDB unopened on the next full load of `pathname`,
 * until `release()`: the page hydrates, but has not read its store (nor the queue kept in
 * it) yet. A loaded machine allows that order; this forces it. Once only per tab.
 */
export async function holdPersistedCacheUnread(page: Page, pathname: string) {
  await page.addInitScript((target) => {
    if (location.pathname !== target || sessionStorage.getItem("persisted-cache-held")) return;
    sessionStorage.setItem("persisted-cache-held", "1");
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    (window as HeldWindow).__releasePersistedCache = release;
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
    release: () => page.evaluate(() => (window as HeldWindow).__releasePersistedCache!()),
  };
}

/**
 * Records the titles `worker` shows as each `showNotification` settles (a refusal too, with what the browser answered):
 * Chromium's getNotifications() drops from its store a notification the platform does not show yet, so a list read
 * while one is being shown can lose it for good (of 20 read so, 2 were gone after). Returns the reader of the record.
 */
export async function recordShownTitles(worker: Worker): Promise<() => Promise<string[]>> {
  await worker.evaluate(() => {
    const scope = self as unknown as { registration: ServiceWorkerRegistration; shownTitles: string[] };
    const { registration } = scope;
    const show = registration.showNotification.bind(registration);
    scope.shownTitles = [];
    registration.showNotification = (title, options) =>
      show(title, options).then(
        () => void scope.shownTitles.push(title),
        (error: unknown) => {
          scope.shownTitles.push(`${title} refused: ${String(error)}`);
          throw error;
        },
      );
  });
  return () => worker.evaluate(() => (self as unknown as { shownTitles: string[] }).shownTitles);
}

/**
 * The page's service worker, made ready to take pushes as the browser's push service hands them over: activated
 * (a push to a worker not yet activated is lost), its shown notifications recorded as each `showNotification` settles
 * (Chromium's getNotifications() can lose one read while it is being shown). `push` delivers a payload through
 * DevTools, as a push service's message would arrive; `notifications` lists what the registration shows.
 */
export async function pushableWorker(page: Page, baseURL: string) {
  const context = page.context();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15_000 });
  const cdp = await context.newCDPSession(page);
  let registrationId: string | null = null;
  const activated = new Set<string>();
  cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
    const ours = registrations.find((registration) => registration.scopeURL === `${baseURL}/` && !registration.isDeleted);
    if (ours) registrationId = ours.registrationId;
  });
  cdp.on("ServiceWorker.workerVersionUpdated", ({ versions }) => {
    for (const version of versions) if (version.status === "activated") activated.add(version.registrationId);
  });
  await cdp.send("ServiceWorker.enable");
  await expect.poll(() => registrationId !== null && activated.has(registrationId), { timeout: 15_000 }).toBe(true);
  const worker =
    context.serviceWorkers().find((candidate) => candidate.url() === `${baseURL}/sw.js`) ?? (await context.waitForEvent("serviceworker"));
  const shownTitles = await recordShownTitles(worker);
  return {
    push: (payload: object) =>
      cdp.send("ServiceWorker.deliverPushMessage", { origin: baseURL, registrationId: registrationId!, data: JSON.stringify(payload) }),
    shownTitles,
    notifications: () =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map(({ title, body, tag, data }) => ({ title, body, tag, data })),
      ),
  };
}
