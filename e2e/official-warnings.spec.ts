import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, gotoHydrated, test } from "./fixtures";
import { apiAs, signInBrowser, uniqueEmail } from "./support/graphql";
import {
  E2eAddPlaceDocument,
  E2eSignUpDocument,
  E2eWarningsAddFoundDocument,
  E2eWarningsFindDocument,
} from "./support/documents.generated";
import { openPlace, placeRow } from "./support/places";

/*
 * Official warnings on the places' cards (decision 022), from the run's loopback fake of the NWS and MeteoAlarm
 * (e2e/global-setup.ts): New York is under a Tornado Watch (Extreme); France's feed has no warning; Australia has
 * no service; a place saved by its coordinates has no known country.
 */

/** An account with places found by name (labelled so), then any saved by coordinates; signed in in the browser. */
async function accountWith(page: Page, request: APIRequestContext, baseURL: string, names: string[], pinned: string[] = []) {
  const signUp = await apiAs(
    request,
    baseURL,
    null,
  )(E2eSignUpDocument, { email: uniqueEmail("warnings"), password: "a sturdy passphrase" });
  const gql = apiAs(request, baseURL, signUp.signUp.token);
  for (const name of names) {
    const { searchLocations } = await gql(E2eWarningsFindDocument, { query: name });
    await gql(E2eWarningsAddFoundDocument, { id: searchLocations[0]!.id, label: name });
  }
  for (const label of pinned) await gql(E2eAddPlaceDocument, { label });
  await signInBrowser(page.context(), baseURL, signUp.signUp.token);
}

/** Presses Tab until `target` has the focus (at most `limit` times): it is reachable by keyboard. */
async function tabTo(page: Page, target: ReturnType<Page["getByRole"]>, limit = 80) {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press("Tab");
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`not reached by ${limit} presses of Tab`);
}

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).include("[data-testid=forecast-card]").analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(" | ")}`);
}

test("a US place under an NWS warning shows its badge; its details open by keyboard, in the place's time, with the service credited", async ({
  page,
  request,
  baseURL,
}) => {
  await accountWith(page, request, baseURL!, ["New York"]);
  await gotoHydrated(page, "/");
  const card = page.getByRole("article", { name: "New York" });
  const badges = card.getByRole("list", { name: "Official warnings for New York" });
  const badge = badges.getByRole("button", { name: "Extreme · Tornado Watch" });
  await expect(badge).toHaveAttribute("aria-expanded", "false");
  await expect(card.getByTestId("warning-details")).toHaveCount(0);

  await tabTo(page, badge);
  await page.keyboard.press("Enter");
  await expect(badge).toHaveAttribute("aria-expanded", "true");
  const details = card.getByTestId("warning-details");
  await expect(details.getByRole("heading", { name: /^Tornado Watch issued November 25 .* by NWS Mobile AL$/ })).toBeVisible();
  await expect(details).toContainText("Extreme · expected later · possible");
  await expect(details).toContainText("New York (Manhattan), NY");
  // In the place's zone (New York in January: EST), whatever the reader's.
  await expect(details.getByTestId("warning-when")).toContainText("EST");
  await expect(details).toContainText("Issued by US National Weather Service");
  // The service's full text opens by keyboard too.
  await tabTo(page, details.getByText("Full text"), 5);
  await page.keyboard.press("Enter");
  await expect(details.getByText(/TORNADO WATCH 641/)).toBeVisible();
  // And the badge closes it again.
  await badge.focus();
  await page.keyboard.press("Space");
  await expect(badge).toHaveAttribute("aria-expanded", "false");
  await expect(details).toHaveCount(0);
});

test("a place no service covers says so plainly, as does one without a known country; the switcher's row has a badge", async ({
  page,
  request,
  baseURL,
}) => {
  // Four places, one open at a time: New York's warning shows on its row before it is opened.
  await accountWith(page, request, baseURL!, ["Sydney", "Paris", "New York"], ["Pinned"]);
  await gotoHydrated(page, "/");
  await expect(page.getByRole("article", { name: "Sydney" }).getByTestId("warnings-status")).toHaveText(
    "No official warnings service covers this place",
  );
  await expect(placeRow(page, "New York").getByText("1 warning", { exact: true })).toBeVisible();
  await expect(placeRow(page, "Paris").getByText(/warning/)).toHaveCount(0);
  await expect((await openPlace(page, "Paris")).getByTestId("warnings-status")).toHaveText("No official warnings in force · MeteoAlarm");
  await expect((await openPlace(page, "Pinned")).getByTestId("warnings-status")).toHaveText(
    "No official warnings: this place was saved by its coordinates, so its country is not known",
  );
  const york = await openPlace(page, "New York");
  await york.getByRole("button", { name: "Extreme · Tornado Watch" }).click();
  await expect(york.getByTestId("warning-details")).toContainText("Issued by US National Weather Service");
});

for (const mode of ["light", "dark"] as const) {
  test(`the cards' warnings pass axe in ${mode} mode, closed and open`, async ({ page, request, baseURL }, testInfo) => {
    await page.emulateMedia({ colorScheme: mode });
    await accountWith(page, request, baseURL!, ["New York", "Sydney"]);
    await gotoHydrated(page, "/");
    const york = page.getByRole("article", { name: "New York" });
    await expect(york.getByRole("button", { name: "Extreme · Tornado Watch" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await york.getByRole("button", { name: "Extreme · Tornado Watch" }).click();
    await york.getByText("Full text").click();
    await expect(york.getByTestId("warning-details")).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 844 });
      await york.screenshot({ path: testInfo.outputPath(`warnings-${mode}-${width}.png`) });
    }
  });
}
