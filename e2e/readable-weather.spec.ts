import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, gotoHydrated, test } from "./fixtures";
import { accountWithPlace, apiAs, signInBrowser, uniqueEmail } from "./support/graphql";
import { E2ePlacesAddAtDocument, E2eSignUpDocument } from "./support/documents.generated";
import { openPlace } from "./support/places";

const serious = async (page: Page, selector: string) =>
  (await new AxeBuilder({ page }).include(selector).analyze()).violations.filter(
    (violation) => violation.impact === "serious" || violation.impact === "critical",
  );

test("the header says the weather in one sentence that agrees with the nowcast, on a colour that passes axe in both modes", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  // Places far apart: the fake service's weather differs with the latitude (rain in some, not in others).
  const account = await accountWithPlace(request, baseURL!, "P0");
  const labels = ["P0"];
  for (const [i, lat] of [40.1, 45.3, 50.7, 55.2, 60.9].entries()) {
    await account.gql(E2ePlacesAddAtDocument, { label: `P${i + 1}`, lat });
    labels.push(`P${i + 1}`);
  }
  await signInBrowser(context, baseURL!, account.token);
  await gotoHydrated(page, "/");
  for (const label of labels) {
    const card = await openPlace(page, label);
    const now = card.getByTestId("weather-now");
    await expect(now.getByTestId("current-temperature")).toHaveText(/^-?\d+ °F$/);
    await expect(now).toContainText(/Feels like -?\d+ °F · Low -?\d+°, high -?\d+°/);
    const headline = (await now.getByTestId("headline").textContent())!;
    const line = (await card.getByTestId("nowcast").textContent())!;
    // Issue 35: never "Rain" now beside "Rain starting in about 5 min".
    if (line.startsWith("Rain starting")) expect(headline).toMatch(/(rain|snow) from \d{1,2}:\d{2}\s?[AP]M$/);
    else if (line.startsWith("Rain stopping")) expect(headline).toMatch(/ until \d{1,2}:\d{2}\s?[AP]M$/);
    else if (line.startsWith("No rain")) expect(headline).not.toMatch(/rain|snow|drizzle|shower|thunder/i);
    else expect(headline).toMatch(/rain|snow|thunder/i);
    // The condition's colour: a tone class the sentence chose.
    await expect(now).toHaveClass(/tone-(sun|night|cloud|rain|snow|storm)/);
  }
  for (const mode of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: mode });
    expect(await serious(page, '[data-testid="open-place"]')).toEqual([]);
    expect(await serious(page, '[data-testid="place-switcher"]')).toEqual([]);
  }
});

test("hourly tabs show temperature with its turns written, rain and wind with arrows and gusts; by pointer and keyboard", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  await accountWithPlace(request, baseURL!, "Home", context);
  await gotoHydrated(page, "/");
  const hours = page.getByRole("region", { name: "Next 24 hours in Home" });
  const temperature = hours.getByRole("img", { name: "Temperature over the next 24 hours" });
  const rain = hours.getByRole("img", { name: "Chance of rain over the next 24 hours" });
  await expect(temperature).toBeVisible();
  await expect(rain).toBeHidden();
  await expect(hours.getByText("Temperature (°F), written at its highs and lows")).toBeVisible();
  // Values on the line at its turns: each one of the hours' own temperatures.
  const degrees = await hours.getByRole("listitem").locator(".font-medium").allTextContents();
  const turns = await temperature.locator("text").allTextContents();
  expect(turns.length).toBeGreaterThanOrEqual(2);
  for (const turn of turns) expect(degrees).toContain(turn);

  await hours.locator("label", { hasText: "Rain" }).click();
  await expect(rain).toBeVisible();
  await expect(temperature).toBeHidden();
  await expect(hours.getByText("Chance of rain (%)")).toBeVisible();

  // The tabs are one radio group: the arrow keys move through them.
  await hours.getByRole("radio", { name: "Rain" }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(hours.getByRole("radio", { name: "Wind" })).toBeChecked();
  const wind = hours.getByTestId("wind-hour");
  await expect(wind).toHaveCount(24);
  await expect(wind.first()).toBeVisible();
  await expect(wind.first().locator("[data-direction]")).toHaveCount(1);
  await expect(wind.first()).toContainText(/^↑\d+G \d+$/);
  await expect(hours.getByText(/^Wind \(mph\): the arrow points where it blows; G = gusts$/)).toBeVisible();
});

test("without JavaScript the hourly tabs still switch, and a day is a row to tap", async ({ browser, request, baseURL }) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  await accountWithPlace(request, baseURL!, "Home", context);
  const page = await context.newPage();
  await page.goto("/");
  const hours = page.getByRole("region", { name: "Next 24 hours in Home" });
  await hours.locator("label", { hasText: "Wind" }).click();
  await expect(hours.getByTestId("wind-hour").first()).toBeVisible();
  const days = page.getByRole("region", { name: "7 days in Home" });
  const rows = days.getByRole("link");
  await expect(rows).toHaveCount(7);
  const listWidth = (await days.getByRole("list").boundingBox())!.width;
  for (const row of await rows.all()) {
    expect((await row.boundingBox())!.width).toBeGreaterThan(listWidth * 0.95);
    expect(await row.evaluate((element) => getComputedStyle(element).textDecorationLine)).toBe("none");
  }
  await rows.nth(1).click();
  await expect(page.getByTestId("day-detail")).toBeVisible();
  await expect(page.getByTestId("day-legend")).toHaveText(/Temperature \(left axis\).*Chance of rain \(bars, right axis\)/);
  await context.close();
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test("a visitor's search shows an example, and the card found comes into view", async ({ page }) => {
    await gotoHydrated(page, "/");
    const search = page.getByRole("combobox", { name: "Search for a place" });
    await expect(search).toHaveAttribute("placeholder", "City or town, e.g. Zurich");
    await search.fill("Zur");
    await page.getByRole("option", { name: /Zurich/ }).tap();
    await expect(page.getByRole("article", { name: "Zurich" }).getByTestId("current-temperature")).toBeInViewport();
  });

  test("an empty signed-in home has one search and one 'Use my location'; a place chosen is saved and opened", async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    const { signUp } = await apiAs(
      request,
      baseURL!,
      null,
    )(E2eSignUpDocument, { email: uniqueEmail("empty"), password: "a sturdy passphrase" });
    await signInBrowser(context, baseURL!, signUp.token);
    await gotoHydrated(page, "/");
    await expect(page.getByRole("button", { name: "Use my location" })).toHaveCount(1);
    await expect(page.getByRole("combobox")).toHaveCount(1);
    await expect(page.getByRole("button", { name: "Add a place" })).toHaveCount(0);
    await page.getByRole("combobox", { name: "Search for a place" }).fill("Zur");
    await page.getByRole("option", { name: /Zurich/ }).tap();
    await expect(page.getByTestId("open-place").getByRole("article", { name: "Zurich" })).toBeVisible();
    await expect(page.getByTestId("places").getByRole("link")).toHaveCount(1);
  });
});
