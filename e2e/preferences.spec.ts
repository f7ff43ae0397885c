import { expect, gotoHydrated, test } from "./fixtures";
import { accountWithPlace } from "./support/graphql";
import { E2ePreferencesLanguageDocument, E2ePreferencesTimeZoneDocument, E2ePreferencesUnitsDocument } from "./support/documents.generated";

test("switching units, clock and time zone changes every value on the home screen", async ({ page, context, request, baseURL }) => {
  const account = await accountWithPlace(request, baseURL!, "Unit Town", context);
  await account.sendBriefing();
  await gotoHydrated(page, "/");
  const card = page.getByRole("article", { name: "Unit Town" });
  await expect(card.getByTestId("current-temperature")).toHaveText(/°F$/);
  await expect(card).toContainText(/mph/);
  await expect(card.getByRole("region", { name: "Next 24 hours" }).getByRole("listitem").first()).toContainText(/AM|PM/);

  await page.getByRole("link", { name: "Settings" }).click();
  const preferences = page.getByRole("region", { name: "Preferences" });
  const saved = page.getByRole("region", { name: "Notifications (F8)" }).getByRole("listitem").filter({ hasText: "Preferences saved." });
  // Time fields on the chosen clock, not the browser's.
  const quietFrom = preferences.getByRole("combobox", { name: "From", exact: true });
  const quietTo = preferences.getByRole("combobox", { name: "To", exact: true });
  await expect(quietFrom).toHaveValue("22:00");
  await expect(quietFrom.locator("option:checked")).toHaveText("10:00 PM");
  await preferences.getByLabel("Celsius (°C)").check();
  // Like every other setting, a choice applies at once: no save button to forget.
  await expect(saved).toBeVisible();
  await expect(preferences.getByRole("button", { name: "Save preferences" })).toHaveCount(0);
  await preferences.getByLabel("km/h").check();
  await preferences.getByLabel("Millimetres (mm)").check();
  await preferences.getByLabel("24-hour (14:00)").check();
  await expect(quietFrom.locator("option:checked")).toHaveText("22:00");
  await expect(quietTo.locator("option:checked")).toHaveText(/^0\d:00$/);
  expect(await quietFrom.locator("option").allTextContents()).not.toContainEqual(expect.stringMatching(/AM|PM/));
  await expect
    .poll(async () => (await account.gql(E2ePreferencesUnitsDocument)).me!.settings)
    .toEqual({ temperatureUnit: "CELSIUS", windSpeedUnit: "KMH", precipitationUnit: "MM", hour12: false });

  // A zone that does not exist is a field error when the field is left, and nothing is sent.
  const zone = preferences.getByLabel("Time zone");
  await zone.fill("Mars/Olympus_Mons");
  await zone.press("Tab");
  await expect(preferences.getByRole("alert")).toHaveText("Choose a time zone from the list, such as Europe/Berlin.");
  await expect(zone).toHaveAttribute("aria-invalid", "true");

  // Typed in another case, a zone is understood and saved under its IANA name.
  await zone.fill("asia/tokyo");
  await zone.press("Enter");
  await expect(preferences.getByRole("alert")).toHaveCount(0);
  await expect.poll(async () => (await account.gql(E2ePreferencesTimeZoneDocument)).me!.settings.timeZone).toBe("Asia/Tokyo");
  await expect(zone).toHaveValue("Asia/Tokyo");

  await page.getByRole("link", { name: "Home", exact: true }).click();
  await expect(card.getByTestId("current-temperature")).toHaveText(/°C$/);
  await expect(card).toContainText(/km\/h/);
  await expect(card).not.toContainText(/mph/);
  await expect(card.getByRole("region", { name: "Next 24 hours" }).getByRole("listitem").first()).not.toContainText(/AM|PM/);

  // Saved on the server: a fresh page agrees, and message times are in Tokyo.
  await gotoHydrated(page, "/");
  await expect(card.getByTestId("current-temperature")).toHaveText(/°C$/);
  const createdAt = await page.locator("[data-message-id] time").first().getAttribute("datetime");
  const tokyo = new Intl.DateTimeFormat("en-US", { timeStyle: "short", timeZone: "Asia/Tokyo", hourCycle: "h23" }).format(
    new Date(createdAt!),
  );
  await expect(page.locator("[data-message-id] time").first()).toContainText(tokyo);
});

test("a signed-in user's language switch changes the page and the bot's language; the cards follow the locale", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  const account = await accountWithPlace(request, baseURL!, "Sprachheim", context);
  await gotoHydrated(page, "/settings");
  await page.getByLabel("Interface language").selectOption("de-DE");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByRole("heading", { name: "Einstellungen", level: 1 })).toBeVisible();

  const { me } = await account.gql(E2ePreferencesLanguageDocument);
  expect(me!.settings.language).toBe("DE_DE");
  const message = await account.sendBriefing();
  expect(message.title).toContain("Heute");

  await page.getByRole("link", { name: "Start" }).click();
  const card = page.getByRole("article", { name: "Sprachheim" });
  await expect(card.getByRole("region", { name: "7 Tage" })).toContainText("Heute");
  await expect(card).toContainText("Wetterdaten von Open-Meteo.com");
  await expect(page.locator(`[data-message-id="${message.id}"]`)).toContainText("Heute");
});
