import { expect, gotoHydrated, test } from "./fixtures";
import { accountWithPlace, recordGraphQLOperations } from "./support/graphql";

test("a message written in English and °F reads in German and °C after the switch in settings, formatted in the browser", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  test.setTimeout(60_000);
  // A new account reads English, °F and a 12-hour clock; the briefing is written so.
  const account = await accountWithPlace(request, baseURL!, "Wortheim", context);
  const sent = await account.sendBriefing();
  expect(sent.title).toBe("Wortheim morning · Today");
  await gotoHydrated(page, "/");
  const message = page.locator(`[data-message-id="${sent.id}"]`);
  await expect(message.getByRole("heading")).toHaveText(/Wortheim morning · Today$/);
  await expect(message).toContainText(/Wortheim: .+ °F to .+ °F/);
  const operations = recordGraphQLOperations(page);

  await page.getByRole("link", { name: "Settings" }).click();
  const preferences = page.getByRole("region", { name: "Preferences" });
  const saved = page.getByRole("region", { name: "Notifications (F8)" }).getByRole("listitem").filter({ hasText: "Preferences saved." });
  await preferences.getByLabel("Celsius (°C)").check();
  await expect(saved).toBeVisible();
  await preferences.getByLabel("km/h").check();
  await preferences.getByLabel("24-hour (14:00)").check();
  await expect(preferences.getByLabel("24-hour (14:00)")).toBeChecked();
  await page.getByLabel("Interface language").selectOption("de-DE");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByRole("heading", { name: "Einstellungen", level: 1 })).toBeVisible();

  await page.getByRole("link", { name: "Start" }).click();
  await expect(message.getByRole("heading")).toHaveText(/Wortheim morning · Heute$/);
  await expect(message).toContainText(/Wortheim: .+ °C bis .+ °C/);
  await expect(message).not.toContainText("°F");
  // Formatted here from the content the page already had: the inbox was not asked for again.
  expect(operations.map((operation) => operation.operationName)).not.toContain("Inbox");
});
