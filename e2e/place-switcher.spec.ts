import type { APIRequestContext, BrowserContext, Page } from "@playwright/test";
import { expect, gotoHydrated, test } from "./fixtures";
import { accountWithPlace, recordGraphQLOperations, signInBrowser } from "./support/graphql";
import { E2eAddPlaceDocument } from "./support/documents.generated";
import { choosePlace } from "./support/places";

/** An account whose places carry these labels, signed in in the browser; the places' ids in order. */
async function signedInWithPlaces(request: APIRequestContext, context: BrowserContext, baseURL: string, labels: string[]) {
  const [first, ...rest] = labels;
  const account = await accountWithPlace(request, baseURL, first!);
  const ids = [account.placeId];
  for (const label of rest) ids.push((await account.gql(E2eAddPlaceDocument, { label })).addPlace.id);
  await signInBrowser(context, baseURL, account.token);
  return ids;
}

const LABELS = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon"];
const rows = (page: Page) => page.getByTestId("places").getByRole("link");
const openCard = (page: Page) => page.getByTestId("open-place").getByTestId("forecast-card");

test.describe("on a desktop", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("the switcher lists every place in a row; one opens at a time, by its address, and stays open after a reload", async ({
    page,
    request,
    context,
    baseURL,
  }) => {
    const ids = await signedInWithPlaces(request, context, baseURL!, LABELS);
    await gotoHydrated(page, "/");
    await expect(page.getByTestId("forecast-card")).toHaveCount(1);
    await expect(openCard(page)).toHaveAttribute("aria-label", "Alpha");
    await expect(rows(page)).toHaveCount(5);
    // Each row: the label, the place's own name under it, now and today's range.
    const beta = rows(page).nth(1);
    await expect(beta).toContainText("Beta");
    await expect(beta).toContainText(/-?\d+°\s*\/\s*-?\d+°/);
    await expect(beta.getByText(/^Low -?\d+°, high -?\d+°$/)).toHaveCount(1);
    await expect(rows(page).first()).toHaveAttribute("aria-current", "true");
    // Beside the open place, in the right column (not under it).
    const cardBox = (await openCard(page).boundingBox())!;
    const listBox = (await page.getByTestId("place-switcher").boundingBox())!;
    expect(listBox.x).toBeGreaterThan(cardBox.x + cardBox.width - 1);

    // By keyboard: Tab to a row, Enter.
    await rows(page).nth(2).focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`\\?place=${ids[2]}$`));
    await expect(openCard(page)).toHaveAttribute("aria-label", "Gamma");
    await expect(rows(page).nth(2)).toHaveAttribute("aria-current", "true");
    await expect(page.getByTestId("forecast-card")).toHaveCount(1);

    await page.reload();
    await expect(openCard(page)).toHaveAttribute("aria-label", "Gamma");
    await expect(page.getByTestId("place-position")).toHaveText("Gamma, 3 of 5");
  });

  test("the page sends one place whole and the others as rows; opening another fetches its whole view once", async ({
    page,
    request,
    context,
    baseURL,
  }) => {
    const ids = await signedInWithPlaces(request, context, baseURL!, LABELS.slice(0, 3));
    const html = await (await gotoHydrated(page, "/"))!.text();
    const json = /<script id="graphql-data"[^>]*>([\s\S]*?)<\/script>/.exec(html)?.[1];
    // Every forecast in the page's data, by the place it belongs to.
    const forecasts = new Map<string, Array<Record<string, unknown>>>();
    const collect = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(collect);
      if (!value || typeof value !== "object") return;
      const place = value as { __typename?: string; id?: string; weather?: Record<string, unknown> };
      if (place.__typename === "Place" && place.weather) forecasts.set(place.id!, [...(forecasts.get(place.id!) ?? []), place.weather]);
      Object.values(value).forEach(collect);
    };
    collect(Object.values(JSON.parse(json!) as Record<string, { data?: unknown }>).map((result) => result.data));
    // The open place: its hours and days. The others: now and today's range, no hours, no week.
    expect(forecasts.get(ids[0]!)!.some((weather) => Array.isArray(weather.hourly) && weather.hourly.length === 24)).toBe(true);
    for (const id of ids.slice(1)) {
      for (const weather of forecasts.get(id)!) {
        expect(Object.keys(weather).sort()).toEqual(["__typename", "current", "id", "today"]);
        expect(weather.today).toHaveLength(1);
      }
    }

    const operations = recordGraphQLOperations(page);
    await rows(page).nth(1).click();
    await expect(openCard(page)).toHaveAttribute("aria-label", "Beta");
    await expect(page.getByRole("region", { name: "Next 24 hours in Beta" }).getByRole("listitem")).toHaveCount(24);
    await rows(page).first().click();
    await expect(openCard(page)).toHaveAttribute("aria-label", "Alpha");
    await rows(page).nth(1).click();
    await expect(openCard(page)).toHaveAttribute("aria-label", "Beta");
    // Beta's whole view once (the first opening); Alpha's came with the page; nothing else.
    expect(operations.map((operation) => [operation.operationName, operation.variables])).toEqual([["OpenPlace", { id: ids[1] }]]);
  });

  test("the arrow keys step between places and stop at the ends; the pager's links do the same", async ({
    page,
    request,
    context,
    baseURL,
  }) => {
    const ids = await signedInWithPlaces(request, context, baseURL!, LABELS.slice(0, 3));
    await gotoHydrated(page, "/");
    const next = page.getByRole("link", { name: "Next place: Beta" });
    await next.focus();
    await page.keyboard.press("ArrowRight");
    await expect(openCard(page)).toHaveAttribute("aria-label", "Beta");
    await expect(page).toHaveURL(new RegExp(`\\?place=${ids[1]}$`));
    await page.keyboard.press("ArrowRight");
    await expect(openCard(page)).toHaveAttribute("aria-label", "Gamma");
    // The last place: no next link, and the keyboard stays in the pager.
    await expect(page.getByRole("link", { name: /^Next place/ })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Previous place: Beta" })).toBeFocused();
    await page.keyboard.press("ArrowRight");
    await expect(openCard(page)).toHaveAttribute("aria-label", "Gamma");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    await expect(openCard(page)).toHaveAttribute("aria-label", "Alpha");
    // Arrows in the hours' strip scroll it; they do not change the place.
    await page.getByRole("group", { name: "Next 24 hours" }).focus();
    await page.keyboard.press("ArrowRight");
    await expect(openCard(page)).toHaveAttribute("aria-label", "Alpha");
    await page.getByRole("link", { name: "Next place: Beta" }).click();
    await expect(openCard(page)).toHaveAttribute("aria-label", "Beta");
  });

  test("the hourly view chosen (rain) stays as the person steps to another place", async ({ page, request, context, baseURL }) => {
    await signedInWithPlaces(request, context, baseURL!, LABELS.slice(0, 2));
    await gotoHydrated(page, "/");
    const alpha = page.getByRole("region", { name: "Next 24 hours in Alpha" });
    await alpha.locator("label", { hasText: "Rain" }).click();
    await expect(alpha.getByRole("radio", { name: "Rain" })).toBeChecked();
    await page.getByRole("link", { name: "Next place: Beta" }).click();
    await expect(openCard(page)).toHaveAttribute("aria-label", "Beta");
    const beta = page.getByRole("region", { name: "Next 24 hours in Beta" });
    await expect(beta.getByRole("radio", { name: "Rain" })).toBeChecked();
    await expect(beta.getByRole("img", { name: "Chance of rain over the next 24 hours" })).toBeVisible();
    await expect(beta.getByRole("img", { name: "Temperature over the next 24 hours" })).toBeHidden();
  });

  test("places opened one after another, by pointer and by keyboard, each open at once (the page froze on the second)", async ({
    page,
    request,
    context,
    baseURL,
  }) => {
    // Issue 35: a dashboard hydrated in place froze when the open place's query took a second place's variables
    // (decision 018). Each step here waits for its place, so a frozen page fails it.
    await signedInWithPlaces(request, context, baseURL!, LABELS.slice(0, 4));
    await gotoHydrated(page, "/");
    for (const [index, label] of [
      [1, "Beta"],
      [2, "Gamma"],
      [3, "Delta"],
      [0, "Alpha"],
    ] as const) {
      await rows(page).nth(index).click();
      await expect(openCard(page)).toHaveAttribute("aria-label", label);
      await expect(rows(page).nth(index)).toHaveAttribute("aria-current", "true");
    }
    await page.getByRole("link", { name: "Next place: Beta" }).focus();
    for (const label of ["Beta", "Gamma", "Delta"]) {
      await page.keyboard.press("ArrowRight");
      await expect(openCard(page)).toHaveAttribute("aria-label", label);
    }
    await expect(page.getByTestId("place-position")).toHaveText("Delta, 4 of 4");
  });

  test("a place added from the dialog is opened at once; focus goes back to “Add a place” and the addition is announced", async ({
    page,
    request,
    context,
    baseURL,
  }) => {
    const ids = await signedInWithPlaces(request, context, baseURL!, LABELS.slice(0, 2));
    await gotoHydrated(page, `/?place=${ids[1]}`);
    const open = page.getByRole("button", { name: "Add a place" });
    const dialog = page.getByRole("dialog", { name: "Add a place" });
    // By keyboard only: open, search, choose, label, submit.
    await open.focus();
    await page.keyboard.press("Enter");
    await expect(dialog.getByRole("combobox", { name: "Search for a place" })).toBeFocused();
    await choosePlace(dialog, "Par", /Paris/);
    await expect(dialog.getByTestId("chosen-location")).toContainText("Paris");
    await dialog.getByLabel("Label (optional)").fill("Studio");
    await dialog.getByLabel("Label (optional)").press("Enter");
    await expect(dialog).toBeHidden();

    await expect(openCard(page)).toHaveAttribute("aria-label", "Studio");
    await expect(page).toHaveURL(/\?place=[^&]+$/);
    expect(ids).not.toContain(new URL(page.url()).searchParams.get("place"));
    await expect(rows(page)).toHaveCount(3);
    await expect(rows(page).nth(2)).toHaveAttribute("aria-current", "true");
    await expect(page.getByTestId("place-position")).toHaveText("Studio, 3 of 3");
    await expect(page.getByRole("region", { name: "Notifications (F8)" }).getByText("Studio added.", { exact: true })).toBeVisible();
    await expect(open).toBeFocused();
    await expect(openCard(page)).toBeInViewport();
    // The address is the new place's: a reload keeps it open.
    await page.reload();
    await expect(openCard(page)).toHaveAttribute("aria-label", "Studio");
  });

  test("places are renamed, reordered and removed (with undo) where they are listed", async ({ page, request, context, baseURL }) => {
    await signedInWithPlaces(request, context, baseURL!, LABELS.slice(0, 3));
    await gotoHydrated(page, "/");
    const switcher = page.getByTestId("place-switcher");
    await switcher.getByRole("button", { name: "Edit" }).click();
    const field = switcher.getByRole("textbox").first();
    await field.fill("Office");
    await field.press("Enter");
    await expect(page.getByText("Renamed to Office.", { exact: true })).toBeVisible();
    await switcher.getByRole("button", { name: "Move Beta down" }).click();
    await switcher.getByRole("button", { name: "Remove Beta" }).click();
    await page.getByRole("button", { name: "Undo" }).click();
    await expect(page.getByText("Beta is back.", { exact: true })).toBeVisible();
    await switcher.getByRole("button", { name: "Done" }).click();
    await expect(rows(page)).toHaveCount(3);
    await expect(rows(page).nth(0)).toContainText("Office");
    await expect(rows(page).nth(2)).toContainText("Beta");
    // The open place is the renamed one, with the place's own name under its label.
    await expect(openCard(page)).toHaveAttribute("aria-label", "Office");
    await expect(rows(page).nth(0).locator("span.text-muted").first()).not.toHaveText("Office");
  });
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  /** A finger's swipe through Chromium's touch input (real touch events, so real pointer events). */
  async function swipe(page: Page, x: number, y: number, dx: number, dy = 0) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x, y }] });
    for (let i = 1; i <= 6; i++)
      await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x: x + (dx * i) / 6, y: y + (dy * i) / 6 }] });
    await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    await cdp.detach();
  }

  test("a swipe steps to the next or previous place; the heading does not wrap beside the buttons", async ({
    page,
    request,
    context,
    baseURL,
  }) => {
    await signedInWithPlaces(request, context, baseURL!, LABELS.slice(0, 3));
    await gotoHydrated(page, "/");
    const heading = page.getByRole("heading", { name: "Your places", level: 2 });
    // One line of text.
    expect((await heading.boundingBox())!.height).toBeLessThan(40);
    // A tap on a row opens its place.
    await rows(page).nth(2).tap();
    await expect(openCard(page)).toHaveAttribute("aria-label", "Gamma");
    await rows(page).first().tap();
    await expect(openCard(page)).toHaveAttribute("aria-label", "Alpha");
    await page.evaluate(() => window.scrollTo(0, 0));
    const now = page.getByTestId("open-place").getByTestId("weather-now");
    const box = (await now.boundingBox())!;
    const y = box.y + box.height / 2;
    await swipe(page, box.x + box.width - 20, y, -200);
    await expect(openCard(page)).toHaveAttribute("aria-label", "Beta");
    await swipe(page, box.x + box.width - 20, y, -200);
    await expect(openCard(page)).toHaveAttribute("aria-label", "Gamma");
    await swipe(page, box.x + 20, y, 200);
    await expect(openCard(page)).toHaveAttribute("aria-label", "Beta");
    // Scrolling down the page is no swipe.
    await swipe(page, box.x + box.width / 2, y + 60, 10, -150);
    await expect(page.getByTestId("place-position")).toHaveText("Beta, 2 of 3");
  });
});

test("without JavaScript, ten places are ten rows and one whole place, the one the address names", async ({
  browser,
  request,
  baseURL,
}) => {
  const labels = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta", "Eta", "Theta", "Iota", "Kappa"];
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const ids = await signedInWithPlaces(request, context, baseURL!, labels);
  const page = await context.newPage();
  const response = await page.goto(`/?place=${ids[3]}`);
  // React moves a large finished part of the page out of its place unless told not to (app/entry.server.tsx).
  expect((await response!.text()).match(/<div hidden id="S:\d+">/g)).toBeNull();
  await expect(page.getByTestId("forecast-card")).toHaveCount(1);
  await expect(openCard(page)).toHaveAttribute("aria-label", "Delta");
  await expect(page.getByRole("region", { name: "Next 24 hours in Delta" }).getByRole("listitem")).toHaveCount(24);
  await expect(rows(page)).toHaveCount(10);
  await rows(page).nth(7).click();
  await expect(openCard(page)).toHaveAttribute("aria-label", "Theta");
  await page.getByRole("link", { name: "Next place: Iota" }).click();
  await expect(openCard(page)).toHaveAttribute("aria-label", "Iota");
  await expect(page.getByRole("main").getByRole("status", { name: "Loading page" })).toHaveCount(0);
  await context.close();
});
