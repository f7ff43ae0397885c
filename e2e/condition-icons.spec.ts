import { expect, gotoHydrated, test } from "./fixtures";
import { accountWithPlace } from "./support/graphql";
import { waitForOfflineReady } from "./support/pwa";

test("a card's condition icons are drawn from one sprite file, which the worker caches for offline use", async ({
  page,
  request,
  baseURL,
}) => {
  await accountWithPlace(request, baseURL!, "Sprite Springs", page.context());
  await gotoHydrated(page, "/");
  const icons = page.getByTestId("forecast-card").locator("svg > use");
  // Now, 24 hours and 7 days.
  await expect(icons).toHaveCount(1 + 24 + 7);

  const files = new Set(
    (await icons.evaluateAll((uses) => uses.map((use) => use.getAttribute("href")!))).map((href) => href.split("#")[0]),
  );
  expect([...files]).toEqual([expect.stringMatching(/^\/assets\/condition-icons-[\w-]+\.svg$/)]);
  // The browser drew each symbol (a sprite it cannot parse draws nothing).
  await expect
    .poll(() => icons.evaluateAll((uses) => uses.filter((use) => (use as SVGUseElement).getBBox().width > 0).length))
    .toBe(1 + 24 + 7);

  await waitForOfflineReady(page);
  const [sprite] = files;
  const cached = await page.evaluate(async (path) => {
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      if ((await cache.keys()).some((request) => new URL(request.url).pathname === path)) return true;
    }
    return false;
  }, sprite!);
  expect(cached).toBe(true);
});
