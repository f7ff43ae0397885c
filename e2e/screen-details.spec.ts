import type { Page } from "@playwright/test";
import { expect, gotoHydrated, test } from "./fixtures";
import { accountWithPlace, signInBrowser } from "./support/graphql";
import {
  E2eAccessibilitySaveGustsRuleDocument,
  E2eAirQualityCelsiusDocument,
  E2eScreenDetailsAddZeroPlaceDocument,
  E2eScreenDetailsRemovePlaceDocument,
} from "./support/documents.generated";

/** Two frames: whatever a focus or a tap set off has rendered by then. */
const twoFrames = (page: Page) =>
  page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

test.describe("on a 390 px phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test("a tap leaves no tooltip behind, not even on the control that gets focus back; the keyboard still shows it", async ({ page }) => {
    await gotoHydrated(page, "/");
    const about = page.getByRole("button", { name: "About Weatherbot" });
    // Tooltips load when the browser is idle; Radix marks its triggers with data-state.
    await expect(about).toHaveAttribute("data-state", "closed");
    await about.tap();
    const dialog = page.getByRole("dialog", { name: "About Weatherbot" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Close" }).tap();
    await expect(dialog).toBeHidden();
    await expect(about).toBeFocused();
    await twoFrames(page);
    await expect(page.getByRole("tooltip")).toHaveCount(0);
    await expect(about).toHaveAttribute("data-state", "closed");

    // From the keyboard, the tip is the control's description as before.
    await page.keyboard.press("Tab");
    await page.keyboard.press("Shift+Tab");
    await expect(about).toBeFocused();
    await expect(page.getByRole("tooltip")).toHaveText("About Weatherbot");
  });

  test("an alert rule's name and details get the row's width, its buttons go under them, and its switch says what it is", async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    const account = await accountWithPlace(request, baseURL!, "Narrow Nook", context);
    await account.gql(E2eAccessibilitySaveGustsRuleDocument);
    await gotoHydrated(page, "/settings?section=alerts");
    const row = page.getByTestId("alert-rules").getByRole("listitem").filter({ hasText: "Gusts" });
    const details = row.getByText(/^Gusts at least/);
    const snooze = row.getByRole("button", { name: "Snooze Gusts for 24 hours" });
    const text = (await details.boundingBox())!;
    const button = (await snooze.boundingBox())!;
    const list = (await page.getByTestId("alert-rules").boundingBox())!;
    // All but the switch's column: not the ≈ 110 px beside three buttons.
    expect(text.width).toBeGreaterThan(list.width - 80);
    expect(button.y).toBeGreaterThanOrEqual(text.y + text.height);
    // The switch's visible label, and its name containing it.
    const toggle = row.getByRole("switch", { name: "Gusts is on" });
    await expect(toggle).toBeChecked();
    await expect(row.locator("label").filter({ has: page.getByRole("switch") })).toHaveText(/^On/);
  });
});

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`at ${viewport.width} px, every section a link names shows its heading below the sticky header`, async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    await page.setViewportSize(viewport);
    const account = await accountWithPlace(request, baseURL!, "Section Shore", context);
    await account.gql(E2eAccessibilitySaveGustsRuleDocument);
    const header = page.locator("body > header, header").first();
    for (const section of ["account", "places", "briefings", "alerts", "preferences", "app", "appearance", "language", "privacy"]) {
      await gotoHydrated(page, `/settings?section=${section}`);
      const heading = page.locator(`#${section}-heading`);
      await expect(heading).toBeInViewport();
      // Where the page has come to rest: the heading's top is not under the header's bottom.
      await expect
        .poll(async () => (await heading.boundingBox())!.y - ((await header.boundingBox())!.y + (await header.boundingBox())!.height), {
          message: section,
        })
        .toBeGreaterThanOrEqual(0);
    }
  });
}

test('"-0" is written nowhere: not in the hours, the days or their lows, around freezing', async ({ page, context, request, baseURL }) => {
  const account = await accountWithPlace(request, baseURL!, "Warm Wharf");
  // °C: freezing is 0 there.
  await account.gql(E2eAirQualityCelsiusDocument);
  await account.gql(E2eScreenDetailsAddZeroPlaceDocument);
  // The place around freezing is the one place, so its card shows every hour and day.
  await account.gql(E2eScreenDetailsRemovePlaceDocument, { id: account.placeId });
  await signInBrowser(context, baseURL!, account.token);
  await gotoHydrated(page, "/");
  const card = page.getByRole("article", { name: "Zero Ridge" });
  await expect(card.getByRole("region", { name: "7 days" }).getByRole("listitem")).toHaveCount(7);
  const text = await card.innerText();
  // Lows of -0.3 °C there (screen-details.graphql), and hours as cold: written 0°, as any value that rounds to zero.
  expect(text).not.toMatch(/(^|[^\d.,])[-−]0(?![\d.,])/m);
  expect(text).toMatch(/(^|[^\d-])0°/m);
});

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Scrolls the page so that `selector`'s first match ends just above the screen's bottom edge, where toasts come. */
async function endAtScreenBottom(page: Page, selector: string) {
  await page.evaluate((css) => {
    const box = document.querySelector(css)!.getBoundingClientRect();
    window.scrollBy({ top: box.bottom - (window.innerHeight - 24), behavior: "instant" });
  }, selector);
}

/** Clicks without scrolling it into view first (as Playwright's click would): the page stays where the test put it. */
const clickInPlace = (page: Page, selector: string) => page.evaluate((css) => document.querySelector<HTMLElement>(css)!.click(), selector);

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test.describe(`toasts at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("keep clear of the rules list and of a place's chart that end behind them", async ({ page, context, request, baseURL }) => {
      const account = await accountWithPlace(request, baseURL!, "Clear Cove", context);
      await account.gql(E2eAccessibilitySaveGustsRuleDocument);
      await account.sendBriefing();
      const toast = page.getByRole("region", { name: "Notifications (F8)" }).getByRole("listitem");

      await gotoHydrated(page, "/settings");
      const rules = page.getByTestId("alert-rules");
      await expect(rules).toBeVisible();
      await endAtScreenBottom(page, '[data-testid="alert-rules"]');
      await clickInPlace(page, '[data-rule-id] button[class*="button-secondary"]');
      await expect(toast.filter({ hasText: /^Gusts is quiet until/ })).toBeVisible();
      await expect.poll(async () => overlap((await rules.boundingBox())!, (await toast.boundingBox())!)).toBe(false);

      await gotoHydrated(page, "/");
      const chart = page.getByTestId("forecast-card").locator('svg[role="img"]').first();
      await expect(chart).toBeVisible();
      await endAtScreenBottom(page, '[data-testid="forecast-card"] svg[role="img"]');
      await clickInPlace(page, 'button[aria-label="Mark all read"]');
      await expect(toast.filter({ hasText: "All messages are marked read." })).toBeVisible();
      await expect.poll(async () => overlap((await chart.boundingBox())!, (await toast.boundingBox())!)).toBe(false);
    });
  });
}
