import AxeBuilder from "@axe-core/playwright";
import { expect, gotoHydrated, test } from "./fixtures";
import { accountWithPlace } from "./support/graphql";

test("a day of a card opens hour by hour by keyboard, survives a reload, closes, and passes axe in both modes", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  const account = await accountWithPlace(request, baseURL!, "Home", context);
  await gotoHydrated(page, "/");
  const days = page.getByRole("region", { name: "7 days in Home" }).getByRole("link");
  await expect(days).toHaveCount(7);
  const third = days.nth(2);
  // A row to tap: the day's name is its first cell's own text (the place and "hour by hour" follow for screen readers).
  await expect(third).toHaveAccessibleName(/^\w+ in Home, hour by hour/);
  const dayName = await third.locator("span.font-medium").evaluate((cell) => cell.firstChild!.textContent!);
  await third.focus();
  await page.keyboard.press("Enter");

  await expect(page).toHaveURL(new RegExp(`/\\?place=${account.placeId}&day=\\d{4}-\\d{2}-\\d{2}$`));
  const detail = page.getByTestId("day-detail");
  const heading = detail.getByRole("heading", { level: 2 });
  await expect(heading).toHaveText(new RegExp(`^${dayName}\\w*, .+ in Home$`));
  await expect(heading).toBeFocused();
  const rows = detail.getByRole("table").locator("tbody tr");
  await expect(rows).toHaveCount(24);
  await expect(rows.first().getByRole("rowheader")).toHaveText("12 AM");
  await expect(rows.first()).toContainText(/\d+ °F/);
  const chart = detail.getByRole("img", { name: /^Temperature from -?\d+° to -?\d+° and chance of rain, hour by hour$/ });
  await expect(chart).toBeVisible();
  // Labelled axes: degrees on the left, per cent on the right, every third hour below.
  for (const label of ["100%", "0%", "12 AM", "3 AM", "12 PM", "9 PM"])
    await expect(chart.locator("text", { hasText: label }).first()).toBeVisible();

  const address = page.url();
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await expect(page.getByTestId("day-detail").locator("tbody tr")).toHaveCount(24);
  expect(page.url()).toBe(address);

  for (const mode of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: mode });
    const results = await new AxeBuilder({ page }).include('[data-testid="day-detail"]').analyze();
    expect(results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical")).toEqual([]);
  }

  await page.getByTestId("day-detail").getByRole("link", { name: "Close" }).click();
  // Back to the place it was opened from.
  await expect(page).toHaveURL(new RegExp(`/\\?place=${account.placeId}$`));
  await expect(page.getByTestId("day-detail")).toHaveCount(0);
});

test("a day of someone else's place shows nothing of it", async ({ page, context, request, baseURL }) => {
  const owner = await accountWithPlace(request, baseURL!, "Secret Garden");
  await accountWithPlace(request, baseURL!, "Mine", context);
  await gotoHydrated(page, `/?place=${owner.placeId}&day=2026-11-25`);
  await expect(page.getByTestId("day-detail")).toContainText("This place is not among yours.");
  await expect(page.getByText("Secret Garden")).toHaveCount(0);
});
