import { expect, gotoHydrated, pinClock, test } from "./fixtures";
import { realNow } from "../tests/support/test-clock";

test.describe("locales", () => {
  test("the server renders the Accept-Language locale with the right <html lang>", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL, locale: "de-DE", extraHTTPHeaders: { "Accept-Language": "de-DE,de;q=0.9" } });
    await pinClock(context);
    const page = await context.newPage();
    const html = await (await page.request.get("/settings")).text();
    expect(html).toMatch(/<html lang="de-DE"/);
    expect(html).toContain("Einstellungen");
    await gotoHydrated(page, "/");
    await expect(page.locator("html")).toHaveAttribute("lang", "de-DE");
    await expect(page.getByRole("link", { name: "Einstellungen" })).toBeVisible();
    await context.close();
  });

  test("an unsupported Accept-Language falls back to en-US", async ({ request }) => {
    const html = await (await request.get("/", { headers: { "Accept-Language": "ja-JP" } })).text();
    expect(html).toMatch(/<html lang="en-US"/);
  });

  test("the language switcher sets the cookie and re-renders in German", async ({ page }) => {
    await gotoHydrated(page, "/settings");
    await expect(page.locator("html")).toHaveAttribute("lang", "en-US");
    await page.getByLabel("Interface language").selectOption("de-DE");
    await page.getByRole("button", { name: "Apply" }).click();

    await expect(page.getByRole("heading", { name: "Einstellungen", level: 1 })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "de-DE");
    await expect(page.getByRole("link", { name: "Start" })).toBeVisible();

    const cookie = (await page.context().cookies()).find((c) => c.name === "i18n_redirected");
    expect(cookie).toMatchObject({ value: "de-DE", path: "/", sameSite: "Lax" });
    // Chromium keeps cookies on its real clock, not the run's pinned one.
    const days = ((cookie?.expires ?? 0) - realNow() / 1000) / 86_400;
    expect(days).toBeGreaterThan(364.9);
    expect(days).toBeLessThanOrEqual(365);

    // The cookie outranks Accept-Language on the next server render.
    const html = await (await page.request.get("/", { headers: { "Accept-Language": "fr-FR" } })).text();
    expect(html).toMatch(/<html lang="de-DE"/);
    await page.reload();
    await expect(page.getByRole("heading", { name: "Einstellungen", level: 1 })).toBeVisible();
  });

  test("the switcher works without JavaScript", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/settings");
    await page.getByLabel("Interface language").selectOption("es-ES");
    await page.getByRole("button", { name: "Apply" }).last().click();
    await expect(page.getByRole("heading", { name: "Ajustes", level: 1 })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "es-ES");
    await context.close();
  });

  test.describe("without the service worker", () => {
    // The worker would answer the chunk from its precache, out of the test's reach.
    test.use({ serviceWorkers: "block" });

    test("a locale that fails to load logs 'Failed locale loading' and falls back to en-US", async ({ page, consoleGuard }) => {
      consoleGuard.allow(/Failed locale loading|Failed to fetch dynamically imported module|net::ERR_FAILED/);
      await page.route(/\/assets\/locale-fr-FR-[^/]+\.js$/, (route) => route.abort());
      await gotoHydrated(page, "/settings");
      await page.getByLabel("Interface language").selectOption("fr-FR");
      await page.getByRole("button", { name: "Apply" }).click();
      await expect.poll(() => consoleGuard.messages().some((line) => line.startsWith("error: Failed locale loading"))).toBe(true);
      // The page keeps working, in English.
      await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
      await page.getByRole("link", { name: "Home" }).click();
      await expect(page.getByRole("heading", { name: "Weather", level: 1 })).toBeVisible();
    });
  });
});
