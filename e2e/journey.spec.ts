import { expect, gotoHydrated, test } from "./fixtures";
import { uniqueEmail } from "./support/graphql";
import { choosePlace } from "./support/places";

/*
 * One person's first session, end to end, through the real server, API, database and
 * browser (weather from the loopback Open-Meteo fake): every step is also tested on its
 * own elsewhere; here they have to work one after another.
 */

test("visitor → account → places → briefing and rule → live message → units, language, dark mode → log out and in", async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  const toasts = page.getByRole("region", { name: /Notifications|Benachrichtigungen/ }).getByRole("listitem");

  // A visitor looks up a forecast.
  await gotoHydrated(page, "/");
  await choosePlace(page.getByRole("main"), "Madr", /Madrid/);
  await expect(page.getByRole("article", { name: "Madrid" }).getByTestId("current-temperature")).toHaveText(/°F$/);

  // Signs up (the browser's zone becomes the account's).
  await page.getByRole("link", { name: "Sign up or log in" }).click();
  await page.getByRole("link", { name: "New here? Create an account" }).click();
  const email = uniqueEmail("journey");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("a sturdy passphrase");
  await page.getByRole("button", { name: "Create account" }).click();

  // Lands on Home and adds three places.
  await expect(page).toHaveURL(/\/$/, { timeout: 15_000 }); // scrypt and a page load, on a busy machine
  await expect(page.getByRole("heading", { name: "Your places" })).toBeVisible();
  // The first from the empty home's one search (choosing saves it), the others through "Add a place".
  await choosePlace(page.getByRole("main"), "Berl", /Berlin/);
  await expect(page.getByTestId("open-place").getByRole("article", { name: "Berlin" })).toBeVisible();
  for (const [query, name] of [
    ["Zuri", /Zurich/],
    ["Lond", /London/],
  ] as const) {
    await page.getByRole("button", { name: "Add a place" }).click();
    const dialog = page.getByRole("dialog", { name: "Add a place" });
    await choosePlace(dialog, query, name);
    await dialog.getByRole("button", { name: "Add place" }).click();
    await expect(dialog).toBeHidden();
  }
  const cardTitles = page.getByTestId("places").getByTestId("place-label");
  await expect(cardTitles).toHaveText(["Berlin", "Zurich", "London"]);

  // Reorders and renames one.
  await page.getByRole("link", { name: "Settings" }).click();
  const places = page.getByRole("region", { name: "Places" });
  await places.getByRole("button", { name: "Move London up" }).click();
  await places.getByRole("button", { name: "Move London up" }).click();
  const london = places.getByRole("textbox").first();
  await expect(london).toHaveValue("London");
  await london.fill("Home");
  await london.press("Enter");
  await expect(toasts.filter({ hasText: "Renamed to Home." })).toBeVisible();

  // Creates a briefing and an alert rule (with its preview).
  await page.getByRole("button", { name: "New briefing" }).click();
  const briefing = page.getByRole("dialog", { name: "New briefing" });
  await briefing.getByLabel("Name").fill("Morning");
  // Off, so the scheduler cannot send one of its own while the test runs; "send now" still does.
  await briefing.getByLabel("On", { exact: true }).uncheck();
  await briefing.getByRole("button", { name: "Save briefing" }).click();
  await expect(briefing).toBeHidden();
  await page.getByRole("button", { name: "New alert rule" }).click();
  const rule = page.getByRole("dialog", { name: "New alert rule" });
  await rule.getByLabel("Name").fill("Rain");
  await rule.getByLabel("Watch").selectOption("PRECIPITATION_PROBABILITY");
  await rule.getByLabel("Threshold (%)").fill("50");
  await expect(rule.getByTestId("rule-preview").getByRole("listitem").first()).toContainText("peak");
  await rule.getByRole("button", { name: "Save rule" }).click();
  await expect(rule).toBeHidden();

  // "Send now" lands live in the inbox of the home screen open in another tab. (The bot may
  // already have written an alert for the rain rule: the briefing is found by its title.)
  const home = await context.newPage();
  await gotoHydrated(home, "/");
  await expect(home.getByRole("heading", { name: "Inbox" })).toBeVisible();
  const briefings = home.locator("[data-message-id]").filter({ hasText: "Morning ·" });
  await expect(briefings).toHaveCount(0);
  await page.getByRole("region", { name: "Briefings" }).getByRole("button", { name: "Send a test briefing now" }).click();
  await expect(briefings).toHaveCount(1);
  await expect(briefings).toHaveAttribute("data-unread", "true");
  const unreadBefore = Number(await home.getByTestId("unread-badge").textContent());
  // Marks it read.
  await briefings.getByRole("button", { name: "Mark as read" }).click();
  await expect(briefings).not.toHaveAttribute("data-unread");
  await expect(home.getByTestId("inbox-unread")).toHaveText(`Unread messages: ${unreadBefore - 1}`);
  await home.close();

  // Switches units and language: values and words change.
  const preferences = page.getByRole("region", { name: "Preferences" });
  await preferences.getByLabel("Celsius (°C)").check();
  await expect(toasts.filter({ hasText: "Preferences saved." })).toBeVisible();
  // Each choice is saved at once; the language switch below must not overtake the last one.
  const savedSettings = page.waitForResponse(
    (response) => response.url().endsWith("/graphql") && Boolean(response.request().postData()?.includes("UpdateSettings")),
  );
  await preferences.getByLabel("km/h").check();
  await savedSettings;
  await page.getByLabel("Interface language").selectOption("de-DE");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByRole("heading", { name: "Einstellungen", level: 1 })).toBeVisible();
  await page.getByRole("link", { name: "Start" }).click();
  const first = page.getByTestId("open-place").getByRole("article");
  await expect(first).toHaveAccessibleName("Home");
  await expect(first.getByTestId("current-temperature")).toHaveText(/°C$/);
  await expect(first).toContainText("km/h");
  await expect(first).toContainText("Wetterdaten von Open-Meteo.com");
  await expect(page.getByRole("heading", { name: "Deine Orte" })).toBeVisible();

  // Dark mode.
  await page.getByRole("link", { name: "Einstellungen" }).click();
  await page.getByLabel("Dunkel").check();
  await expect(page.locator("html")).toHaveClass(/dark/);

  // Logs out and back in: everything is still there.
  await page.getByRole("button", { name: "Abmelden" }).click();
  await expect(page.getByRole("button", { name: "Anmelden" })).toBeVisible();
  await page.getByLabel("E-Mail").fill(email);
  await page.getByLabel("Passwort").fill("a sturdy passphrase");
  await page.getByRole("button", { name: "Anmelden" }).click();
  // Logging in lands on Home.
  await expect(page).toHaveURL(/\/$/, { timeout: 15_000 }); // scrypt and a page load, on a busy machine
  await expect(page.getByTestId("places").getByTestId("place-label")).toHaveText(["Home", "Berlin", "Zurich"]);
  await expect(page.locator("html")).toHaveClass(/dark/);
});
