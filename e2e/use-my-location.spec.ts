import type { Page } from "@playwright/test";
import { expect, gotoHydrated, test } from "./fixtures";
import { accountWithPlace } from "./support/graphql";

const ZURICH = { latitude: 47.376887, longitude: 8.541694 };
// accountWithPlace saves its place at these coordinates.
const BERLIN = { latitude: 52.52, longitude: 13.41 };

const toasts = (page: Page) => page.getByRole("region", { name: /\(F8\)$/ }).getByRole("listitem");

test("signed in: my location is added as “Current location” once, then shown; a place I am at is shown, not added", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  await accountWithPlace(request, baseURL!, "Home", context);
  await context.grantPermissions(["geolocation"]);
  await context.setGeolocation(ZURICH);
  await gotoHydrated(page, "/");
  // The switcher's rows; the place found opens.
  const cards = page.getByTestId("places").getByRole("link");
  await expect(cards).toHaveCount(1);

  await page.getByRole("button", { name: "Use my location" }).click();
  await expect(toasts(page).filter({ hasText: "Current location added." })).toBeVisible();
  await expect(cards).toHaveCount(2);
  const here = page.getByRole("article", { name: "Current location" });
  // Coordinates only, rounded to about a kilometre: no address is looked up.
  await expect(here).toContainText("47.38, 8.54");
  await expect(here.getByTestId("current-temperature")).toBeVisible();

  await page.getByRole("button", { name: "Use my location" }).click();
  await expect(toasts(page).filter({ hasText: "You are at Current location" })).toBeVisible();
  await expect(cards).toHaveCount(2);

  await context.setGeolocation(BERLIN);
  await page.getByRole("button", { name: "Use my location" }).click();
  await expect(toasts(page).filter({ hasText: "You are at Home" })).toBeVisible();
  await expect(cards).toHaveCount(2);
  await expect(page.getByTestId("open-place").getByRole("article", { name: "Home" })).toBeVisible();
});

test("a visitor sees the weather where they are", async ({ page, context }) => {
  await context.grantPermissions(["geolocation"]);
  await context.setGeolocation(ZURICH);
  await gotoHydrated(page, "/");
  await page.getByRole("button", { name: "Use my location" }).click();
  const card = page.getByRole("article", { name: "Current location" });
  await expect(card.getByTestId("current-temperature")).toBeVisible();
  await expect(card).toContainText("47.38, 8.54");
});

test("when the browser refuses, the page says so and what to do instead", async ({ page }) => {
  // No permission granted: Chromium refuses the position.
  await gotoHydrated(page, "/");
  await page.getByRole("button", { name: "Use my location" }).click();
  await expect(toasts(page).filter({ hasText: "Location access was refused." })).toBeVisible();
  await expect(page.getByTestId("forecast-card")).toHaveCount(0);
});

test("when finding the position times out, in German, the page says so in German", async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: "i18n_redirected", value: "de-DE", url: baseURL! }]);
  await page.addInitScript(() => {
    navigator.geolocation.getCurrentPosition = (_success, failure) =>
      failure?.({
        code: 3,
        message: "Timeout expired",
        PERMISSION_DENIED: 1,
        POSITION_UNAVAILABLE: 2,
        TIMEOUT: 3,
      } as GeolocationPositionError);
  });
  await gotoHydrated(page, "/");
  await page.getByRole("button", { name: "Meinen Standort verwenden" }).click();
  await expect(toasts(page).filter({ hasText: "Dein Standort konnte nicht rechtzeitig ermittelt werden." })).toBeVisible();
});
