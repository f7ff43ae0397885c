import AxeBuilder from "@axe-core/playwright";
import { expect, gotoHydrated, test } from "./fixtures";
import { accountWithPlace } from "./support/graphql";
import { E2eScreenReaderNamesAddZurichDocument } from "./support/documents.generated";

test("landmarks have unique names, “Feels like” is said once and the toasts' names carry no placeholder", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  const account = await accountWithPlace(request, baseURL!, "Berlin", context);
  await account.gql(E2eScreenReaderNamesAddZurichDocument);
  await gotoHydrated(page, "/");
  // Two places in the switcher, one shown whole.
  await expect(page.getByTestId("places").getByRole("link")).toHaveCount(2);

  // The per-card sections say whose forecast they are.
  const berlin = page.getByRole("article", { name: "Berlin" });
  await expect(berlin.getByRole("region", { name: "Next 24 hours in Berlin", exact: true })).toHaveCount(1);
  await expect(berlin.getByRole("region", { name: "7 days in Berlin", exact: true })).toHaveCount(1);
  const names = await page
    .locator("section[aria-label], section[aria-labelledby], [role=region]")
    .evaluateAll((elements) =>
      elements.map(
        (element) =>
          element.getAttribute("aria-label") ?? document.getElementById(element.getAttribute("aria-labelledby") ?? "")?.textContent ?? "",
      ),
    );
  expect(new Set(names).size, names.join(" | ")).toBe(names.length);

  // “Feels like” once, with its value, in the header that says the weather.
  await expect(berlin.getByText("Feels like")).toHaveCount(1);
  await expect(berlin.getByTestId("weather-now")).toContainText(/Feels like -?\d+ °F/);

  // axe on the landmark rules.
  const results = await new AxeBuilder({ page }).withRules(["landmark-unique"]).analyze();
  expect(results.violations.map((violation) => violation.id)).toEqual([]);

  // A toast: the viewport's name and what is announced are real words.
  await page.getByRole("link", { name: "Settings" }).click();
  const places = page.getByRole("region", { name: "Places" });
  await places.getByRole("textbox").first().fill("Berlin Mitte");
  await places.getByRole("textbox").first().press("Enter");
  await expect(
    page
      .getByRole("region", { name: "Notifications (F8)", exact: true })
      .getByRole("listitem")
      .filter({ hasText: "Renamed to Berlin Mitte." }),
  ).toBeVisible();
  expect(await page.locator("body").evaluate((body) => body.innerHTML)).not.toContain("{hotkey}");
});

test.describe("in German", () => {
  test.use({ locale: "de-DE", extraHTTPHeaders: { "Accept-Language": "de-DE" } });

  test("the notifications region has a German name", async ({ page, context, request, baseURL }) => {
    await accountWithPlace(request, baseURL!, "Berlin", context);
    await gotoHydrated(page, "/settings");
    const places = page.getByRole("region", { name: "Orte" });
    await places.getByRole("textbox").first().fill("Zuhause");
    await places.getByRole("textbox").first().press("Enter");
    await expect(page.getByRole("region", { name: "Benachrichtigungen (F8)", exact: true }).getByRole("listitem")).toHaveCount(1);
    expect(await page.locator("body").evaluate((body) => body.innerHTML)).not.toContain("{hotkey}");
  });
});
