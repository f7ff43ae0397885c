import type { Page } from "@playwright/test";
import { CSP_VIOLATION_PREFIX, expect, gotoHydrated, test } from "./fixtures";
import { accountWithPlace } from "./support/graphql";

/**
 * No page logs a Content Security Policy violation: / and /settings, for a visitor and signed
 * in (with a place, so forecasts and their icons render), in light and in dark mode, loaded
 * whole and reached by a client navigation. The console guard fails a test on any violation
 * (every page reports its `securitypolicyviolation` events as console errors); this spec also
 * reads the messages itself, so it says which page and mode broke the policy.
 */
const cspMessages = (messages: string[]) =>
  messages.filter((line) => line.includes(CSP_VIOLATION_PREFIX) || /Content[- ]Security[- ]Policy/i.test(line));

async function setColorMode(page: Page, mode: "light" | "dark") {
  await page.emulateMedia({ colorScheme: mode });
  // The settings form's post, as without JavaScript: the theme cookie the server renders from.
  const saved = await page.request.post("/resources/theme", { form: { theme: mode, redirectTo: "/" }, maxRedirects: 0 });
  expect(saved.status()).toBe(303);
}

async function visitPages(page: Page, mode: "light" | "dark") {
  for (const path of ["/", "/settings"]) {
    await gotoHydrated(page, path);
    await expect(page.locator("html")).toHaveClass(new RegExp(`\\b${mode}\\b`));
  }
  // A client navigation loads the other route's code and data through the same policy.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link").first().click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
}

for (const mode of ["light", "dark"] as const) {
  test(`a visitor's pages log no CSP violation (${mode})`, async ({ page, consoleGuard }) => {
    await setColorMode(page, mode);
    await visitPages(page, mode);
    await page.getByRole("button", { name: "About Weatherbot" }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    expect(cspMessages(consoleGuard.messages())).toEqual([]);
  });

  test(`a signed-in user's pages log no CSP violation (${mode})`, async ({ page, context, request, baseURL, consoleGuard }) => {
    await accountWithPlace(request, baseURL!, "Home", context);
    await setColorMode(page, mode);
    await visitPages(page, mode);
    await expect(page.getByText("Home").first()).toBeVisible();
    expect(cspMessages(consoleGuard.messages())).toEqual([]);
  });
}

test("a violation is caught: the guard's reporter turns the browser's event into a console error", async ({ page, consoleGuard }) => {
  consoleGuard.allow(/violates the following Content Security Policy directive|CSP violation:/);
  await gotoHydrated(page, "/");
  // An image from a host the policy does not list (img-src 'self' data: blob:), as injected markup would add.
  await page.evaluate(() => {
    const image = document.createElement("img");
    image.src = "https://tracker.invalid/pixel.png";
    document.body.append(image);
  });
  await expect
    .poll(() =>
      cspMessages(consoleGuard.messages()).filter((line) =>
        line.includes(`${CSP_VIOLATION_PREFIX} img-src blocked https://tracker.invalid`),
      ),
    )
    .toHaveLength(1);
});
