import { expect, gotoHydrated, test } from "./fixtures";

// The run's pinned clock (scripts/test-clock.mjs, decision 020): the server, this test and the page read one time.
test("the page, the test and the server read the run's one clock", async ({ page }) => {
  const response = await gotoHydrated(page, "/");
  const test = Date.now();
  const server = Date.parse(response!.headers().date!);
  const browser = await page.evaluate(() => Date.now());
  expect(Math.abs(server - test)).toBeLessThan(60_000);
  expect(Math.abs(browser - test)).toBeLessThan(60_000);
  // Pinned at TEST_NOW when the run started, and running on from there.
  if (process.env.TEST_NOW) expect(test - Date.parse(process.env.TEST_NOW)).toBeGreaterThanOrEqual(0);
  expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(
    Intl.DateTimeFormat().resolvedOptions().timeZone,
  );
});
