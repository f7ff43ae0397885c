import { expect, gotoHydrated, test } from "./fixtures";

/** A browser context speaking `locale` (Playwright sends it as Accept-Language too). */
const speaking = (locale: string) => ({ locale, extraHTTPHeaders: { "Accept-Language": `${locale},${locale.split("-")[0]};q=0.9` } });

async function lookUpZurich(page: import("@playwright/test").Page) {
  await page.getByRole("combobox").first().fill("Zur");
  await page.getByRole("option", { name: /Zurich/ }).click();
  return page.getByRole("article", { name: "Zurich" });
}

test.describe("a British English browser", () => {
  test.use(speaking("en-GB"));

  test("gets English with °C and mph, as a visitor and in a new account", async ({ page }) => {
    await gotoHydrated(page, "/");
    await expect(page.locator("html")).toHaveAttribute("lang", "en-US");
    const card = await lookUpZurich(page);
    await expect(card.getByTestId("current-temperature")).toHaveText(/^-?\d+ °C$/);
    await expect(card).toContainText(/\d+ mph/);

    await gotoHydrated(page, "/settings");
    await page.getByRole("link", { name: "New here? Create an account" }).click();
    await page.getByLabel("Email").fill(`e2e-gb-${Date.now()}@example.com`);
    await page.getByLabel("Password").fill("a sturdy passphrase");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/$/, { timeout: 15_000 }); // scrypt and a page load, on a busy machine
    await gotoHydrated(page, "/settings");
    const preferences = page.getByRole("region", { name: "Preferences" });
    await expect(preferences.getByRole("radio", { name: "Celsius (°C)" })).toBeChecked();
    await expect(preferences.getByRole("radio", { name: "mph" })).toBeChecked();
    await expect(preferences.getByRole("radio", { name: "Millimetres (mm)" })).toBeChecked();
  });
});

test.describe("an Austrian German browser", () => {
  // French comes second: the German of Austria must still win over it.
  test.use({ locale: "de-AT", extraHTTPHeaders: { "Accept-Language": "de-AT,fr-FR;q=0.8" } });

  test("gets German with metric units", async ({ page }) => {
    await gotoHydrated(page, "/");
    await expect(page.locator("html")).toHaveAttribute("lang", "de-DE");
    const card = await lookUpZurich(page);
    await expect(card.getByTestId("current-temperature")).toHaveText(/^-?\d+ °C$/);
    await expect(card).toContainText(/\d+ km\/h/);
  });
});

test.describe("a US English browser", () => {
  test.use(speaking("en-US"));

  test("keeps °F and mph", async ({ page }) => {
    await gotoHydrated(page, "/");
    const card = await lookUpZurich(page);
    await expect(card.getByTestId("current-temperature")).toHaveText(/^-?\d+ °F$/);
    await expect(card).toContainText(/\d+ mph/);
  });
});
