import { expect, test } from "./fixtures";
import { startAppServer } from "./support/app-server";

test.describe("error pages", () => {
  // The browser logs the error status of the document itself; that is the point here.
  test.beforeEach(({ consoleGuard }) => consoleGuard.allow(/Failed to load resource: the server responded with a status of (404|500|503)/));

  test("an unknown deep path answers 404 with the not-found page", async ({ page }) => {
    const response = await page.goto("/no/such/place/here");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page Not Found");
    await expect(page.getByTestId("error-description")).toHaveText("Page not found: /no/such/place/here");
    // The two texts and nothing above them ("Error 404" said the title twice).
    await expect(page.getByTestId("error-page").locator("h1, p")).toHaveText(["Page Not Found", "Page not found: /no/such/place/here"]);
    await expect(page).toHaveTitle("Page Not Found · Weatherbot");
    // Inside the default layout: the header's navigation is still there.
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    await page.getByRole("link", { name: "Back to home" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Weather");
  });

  test("an unexpected server error shows Internal Server Error without internals", async ({ page }) => {
    const response = await page.goto("/__test/error?message=secret%20database%20detail");
    expect(response?.status()).toBe(500);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Internal Server Error");
    // Production replaces an unexpected error's message and never shows a stack.
    await expect(page.getByTestId("error-description")).toHaveText("Unexpected Server Error");
    await expect(page.locator("body")).not.toContainText("secret database detail");
    await expect(page.locator("pre")).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Back to home" })).toHaveAttribute("href", "/");
  });

  test("an error response shows its own status and message", async ({ page }) => {
    const response = await page.goto("/__test/error?status=503&message=Forecast%20service%20is%20down");
    expect(response?.status()).toBe(503);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Internal Server Error");
    await expect(page.getByTestId("error-description")).toHaveText("Forecast service is down");
  });

  test("route validation failure answers 404 with the validator's message", async ({ page }) => {
    const response = await page.goto("/settings?section=nonsense");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page Not Found");
    await expect(page.getByTestId("error-description")).toHaveText("Unknown settings section: nonsense");
    const valid = await page.goto("/settings?section=language");
    expect(valid?.status()).toBe(200);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("both error variants render with a link home", async ({ page }) => {
      const notFound = await page.goto("/nowhere");
      expect(notFound?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page Not Found");
      await expect(page.getByRole("link", { name: "Back to home" })).toBeVisible();

      const failed = await page.goto("/__test/error");
      expect(failed?.status()).toBe(500);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Internal Server Error");
      await page.getByRole("link", { name: "Back to home" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Weather");
    });
  });
});

test("the failure-injection routes do not exist unless TEST_HOOKS=1", async () => {
  const server = await startAppServer({ TEST_HOOKS: "0" });
  try {
    const response = await fetch(`${server.baseURL}/__test/error`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("Page not found: /__test/error");
  } finally {
    await server.stop();
  }
});
