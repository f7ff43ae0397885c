import type { APIRequestContext, Page } from "@playwright/test";
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

/** An account with a place and one briefing in its inbox, signed in; its home page seen once online, kept by the worker. */
export async function signedInOnlineOnce(page: Page, request: APIRequestContext, baseURL: string, placeLabel: string) {
  const account = await accountWithPlace(request, baseURL, placeLabel);
  const message = await account.sendBriefing();
  await signInBrowser(page.context(), baseURL, account.token);
  await gotoHydrated(page, "/");
  await expect(page.getByRole("heading", { name: placeLabel, exact: true })).toBeVisible();
  await waitForOfflineReady(page);
  return { account, message };
}
