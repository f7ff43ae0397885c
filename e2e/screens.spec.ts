import { expect, gotoHydrated, test } from "./fixtures";
import { accountWithPlace } from "./support/graphql";
import { E2eScreensAddParisStudioDocument } from "./support/documents.generated";

/*
 * Screenshots of both screens (and a day's detail) in both colour modes at phone and desktop widths, kept
 * as test artifacts (test-results/screens, not committed) for a person to look at.
 */
const WIDTHS = [360, 390, 1280] as const;
const MODES = ["light", "dark"] as const;

test("/, a day's detail and /settings fit every width from 360 px without sideways scrolling; screenshots in light and dark", async ({
  page,
  context,
  request,
  baseURL,
}, testInfo) => {
  test.setTimeout(90_000);
  const account = await accountWithPlace(request, baseURL!, "Harbour Office", context);
  await account.gql(E2eScreensAddParisStudioDocument);
  await account.sendBriefing();
  await account.sendBriefing();
  // Tomorrow's detail for the first place: a day of its forecast whatever its zone.
  const dayAddress = `/?place=${account.placeId}&day=${new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)}`;
  for (const mode of MODES) {
    await page.emulateMedia({ colorScheme: mode });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      for (const [name, path] of [
        ["home", "/"],
        ["day", dayAddress],
        ["settings", "/settings"],
      ] as const) {
        await gotoHydrated(page, path);
        await expect(page.locator("main")).toBeVisible();
        if (name === "day") await expect(page.getByTestId("day-detail").locator("tbody tr")).toHaveCount(24);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${path} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
        await page.screenshot({ path: testInfo.outputPath(`screens/${name}-${mode}-${width}.png`), fullPage: true });
      }
    }
  }
});
