import type { APIRequestContext, BrowserContext } from "@playwright/test";
import { expect, gotoHydrated, test } from "./fixtures";
import { accountWithPlace, signInBrowser } from "./support/graphql";
import { E2eAddPlaceDocument } from "./support/documents.generated";

/** An account whose places carry these labels, signed in in the browser. */
async function signedInWithPlaces(request: APIRequestContext, context: BrowserContext, baseURL: string, labels: string[]) {
  const [first, ...rest] = labels;
  const account = await accountWithPlace(request, baseURL, first!);
  for (const label of rest) await account.gql(E2eAddPlaceDocument, { label });
  await signInBrowser(context, baseURL, account.token);
}

test("with four places or more, the first card is whole and the others compact; one opens and closes by keyboard", async ({
  page,
  request,
  context,
  baseURL,
}) => {
  await signedInWithPlaces(request, context, baseURL!, ["Alpha", "Beta", "Gamma", "Delta"]);
  await gotoHydrated(page, "/");
  await expect(page.getByTestId("forecast-card")).toHaveCount(4);
  await expect(page.getByRole("region", { name: "Next 24 hours in Alpha" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Show forecast for Alpha" })).toHaveCount(0);

  const beta = page.getByRole("article", { name: "Beta" });
  await expect(beta.getByTestId("current-temperature")).toHaveText(/^-?\d+ °[CF]$/);
  await expect(beta).toContainText(/Low -?\d+°, high -?\d+° · Chance of rain \d+%/);
  await expect(page.getByRole("region", { name: "Next 24 hours in Beta" })).toHaveCount(0);
  await expect(page.getByRole("region", { name: "7 days in Beta" })).toHaveCount(0);

  const toggle = beta.getByRole("button", { name: "Show forecast for Beta" });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(toggle).toHaveText("Show forecast");
  await toggle.focus();
  await page.keyboard.press("Enter");
  const opened = beta.getByRole("button", { name: "Hide forecast for Beta" });
  await expect(opened).toHaveAttribute("aria-expanded", "true");
  await expect(opened).toBeFocused();
  await expect(page.getByRole("region", { name: "Next 24 hours in Beta" }).getByRole("listitem")).toHaveCount(24);
  await expect(page.getByRole("region", { name: "7 days in Beta" })).toBeVisible();
  // What it controls is the card's forecast.
  const controlled = await opened.getAttribute("aria-controls");
  await expect(page.locator(`[id="${controlled}"]`).getByRole("region", { name: "Next 24 hours in Beta" })).toBeVisible();

  await page.keyboard.press("Space");
  await expect(beta.getByRole("button", { name: "Show forecast for Beta" })).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("region", { name: "Next 24 hours in Beta" })).toHaveCount(0);
});

test("with three places, every card is whole", async ({ page, request, context, baseURL }) => {
  await signedInWithPlaces(request, context, baseURL!, ["Alpha", "Beta", "Gamma"]);
  await gotoHydrated(page, "/");
  await expect(page.getByTestId("forecast-card")).toHaveCount(3);
  for (const place of ["Alpha", "Beta", "Gamma"])
    await expect(page.getByRole("region", { name: `Next 24 hours in ${place}` })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Show forecast/ })).toHaveCount(0);
});

test("a page of ten places is sent in reading order: without scripts every card shows, none parked in a hidden part of the page", async ({
  browser,
  request,
  baseURL,
}) => {
  const labels = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta", "Eta", "Theta", "Iota", "Kappa"];
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  await signedInWithPlaces(request, context, baseURL!, labels);
  const page = await context.newPage();
  const response = await page.goto("/");
  // React moves a large finished part of the page out of its place unless told not to (app/entry.server.tsx).
  expect((await response!.text()).match(/<div hidden id="S:\d+">/g)).toBeNull();
  await expect(page.getByTestId("forecast-card")).toHaveCount(labels.length);
  for (const label of labels) await expect(page.getByRole("article", { name: label, exact: true })).toBeVisible();
  await expect(page.getByRole("main").getByRole("status", { name: "Loading page" })).toHaveCount(0);
  await context.close();
});
