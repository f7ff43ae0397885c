import { expect, type Page } from "@playwright/test";

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
