import type { Page } from "@playwright/test";
import { expect, gotoHydrated, test } from "./fixtures";

const html = (page: Page) => page.locator("html");

async function choosePreference(page: Page, label: "System" | "Light" | "Dark") {
  await gotoHydrated(page, "/settings");
  await page.getByRole("radio", { name: label }).check();
  // remix-themes saves the choice with a POST; wait until the cookie reflects it.
  await expect
    .poll(async () => (await page.context().cookies()).some((cookie) => cookie.name === "weatherbot_theme"))
    .toBe(label !== "System");
}

test.describe("colour mode", () => {
  test("a saved dark mode is in the first server HTML, so a reload never flashes", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "light" });
    await choosePreference(page, "Dark");
    await expect(html(page)).toHaveClass(/\bdark\b/);

    const firstHtml = await (await page.request.get("/settings")).text();
    expect(firstHtml).toMatch(/<html[^>]*class="dark"/);

    await page.reload();
    await expect(html(page)).toHaveClass(/\bdark\b/);
    await expect(page.getByRole("radio", { name: "Dark" })).toBeChecked();
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).not.toBe("rgb(255, 255, 255)");
  });

  test("the header button cycles system → light → dark → system", async ({ page }) => {
    await gotoHydrated(page, "/");
    const button = page.getByRole("button", { name: /^Colour mode:/ });
    await expect(button).toHaveAttribute("data-preference", "system");
    await button.click();
    await expect(button).toHaveAttribute("data-preference", "light");
    await expect(html(page)).toHaveClass(/\blight\b/);
    await button.click();
    await expect(button).toHaveAttribute("data-preference", "dark");
    await expect(html(page)).toHaveClass(/\bdark\b/);
    await button.click();
    await expect(button).toHaveAttribute("data-preference", "system");
    expect(await page.evaluate(() => localStorage.getItem("weatherbot-color-mode"))).toBe("system");
  });

  test("system follows prefers-color-scheme live", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    await gotoHydrated(page, "/");
    await expect(html(page)).toHaveClass(/\bdark\b/);
    await page.emulateMedia({ colorScheme: "light" });
    await expect(html(page)).toHaveClass(/\blight\b/);
    await expect(html(page)).not.toHaveClass(/\bdark\b/);
    await page.emulateMedia({ colorScheme: "dark" });
    await expect(html(page)).toHaveClass(/\bdark\b/);
  });

  test("without JavaScript the settings form saves the mode", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    const page = await context.newPage();
    await page.goto("/settings");
    await page.getByRole("radio", { name: "Dark" }).check();
    await page.getByRole("button", { name: "Apply" }).first().click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(html(page)).toHaveClass("dark");
    await context.close();
  });

  test("a route's handle.colorMode forces the mode while it is shown", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "light" });
    await choosePreference(page, "Light");
    const served = await (await page.request.get("/__test/forced-dark")).text();
    expect(served).toMatch(/<html[^>]*class="dark"/);

    await page.goto("/__test/forced-dark");
    await expect(html(page)).toHaveClass(/\bdark\b/);
    // Leaving the route gives the saved preference back, and the preference is unchanged.
    await page.getByRole("link", { name: "Settings" }).click();
    await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
    await expect(html(page)).toHaveClass(/\blight\b/);
    await expect(page.getByRole("radio", { name: "Light" })).toBeChecked();
  });

  test("forcing 'system' logs a warning and the saved preference applies", async ({ page, consoleGuard }) => {
    await page.emulateMedia({ colorScheme: "light" });
    await choosePreference(page, "Dark");
    await page.goto("/__test/forced-system");
    await expect(page.getByRole("heading", { name: "Forced system" })).toBeVisible();
    await expect(html(page)).toHaveClass(/\bdark\b/);
    await expect
      .poll(
        () =>
          consoleGuard.messages().filter((line) => line.startsWith("warning:") && line.includes('cannot force colour mode "system"'))
            .length,
      )
      .toBeGreaterThan(0);
  });
});
