import { expect, gotoHydrated, test } from "./fixtures";
import { accountWithPlace } from "./support/graphql";
import { E2eBriefingsAddSecondSpotDocument, E2eBriefingsDeleteDocument, E2eBriefingsIdsDocument } from "./support/documents.generated";

test("briefings: create in the overlay (with field errors), send a test now, switch off, edit, delete", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  const account = await accountWithPlace(request, baseURL!, "Brief Bay", context);
  await account.gql(E2eBriefingsAddSecondSpotDocument);
  await account.gql(E2eBriefingsDeleteDocument, { id: (await account.gql(E2eBriefingsIdsDocument)).briefings[0]!.id });
  await gotoHydrated(page, "/settings");
  const section = page.getByRole("region", { name: "Briefings" });
  const toasts = page.getByRole("region", { name: "Notifications (F8)" }).getByRole("listitem");
  await expect(section).toContainText("No briefings yet.");

  await section.getByRole("button", { name: "New briefing" }).click();
  const dialog = page.getByRole("dialog", { name: "New briefing" });
  await expect(dialog.getByLabel("Name")).toBeFocused();
  // Nothing chosen: each problem on its field.
  await dialog.getByLabel("Brief Bay").uncheck();
  await dialog.getByRole("button", { name: "Save briefing" }).click();
  await expect(dialog.getByRole("alert")).toHaveText(["Give the briefing a name.", "Choose at least one place."]);

  await dialog.getByLabel("Name").fill("Commute");
  await dialog.getByLabel("Brief Bay").check();
  await dialog.getByLabel("Second Spot").check();
  await dialog.getByLabel("Covers").selectOption("TOMORROW");
  await dialog.getByLabel("Time").selectOption("06:45");
  await dialog.getByLabel("Saturday").check();
  await dialog.getByRole("button", { name: "Save briefing" }).click();
  await expect(dialog).toBeHidden();
  await expect(toasts.filter({ hasText: "Commute saved." })).toBeVisible();
  const row = section.getByRole("listitem").filter({ hasText: "Commute" });
  await expect(row).toContainText("Tomorrow · Brief Bay, Second Spot · Mon, Tue, Wed, Thu, Fri, Sat at 6:45 AM");
  await expect(row).toContainText("Next:");

  await row.getByRole("button", { name: "Send a test briefing now" }).click();
  await expect(toasts.filter({ hasText: "Test briefing sent to your inbox." })).toBeVisible();
  await expect(page.getByTestId("unread-badge")).toHaveText("1");

  await row.getByRole("switch", { name: "Commute is on" }).uncheck();
  await expect(row).toContainText("Off");

  await row.getByRole("button", { name: "Edit Commute" }).click();
  const edit = page.getByRole("dialog", { name: "Edit briefing" });
  await expect(edit.getByLabel("Name")).toHaveValue("Commute");
  await edit.getByLabel("Name").fill("Morning commute");
  await edit.getByLabel("Sunday").check();
  await edit.getByRole("button", { name: "Save briefing" }).click();
  await expect(section.getByRole("listitem")).toHaveCount(1);
  await expect(section.getByRole("listitem")).toContainText("Morning commute");
  // All seven days are said as such, not named one by one.
  await expect(section.getByRole("listitem")).toContainText("Tomorrow · Brief Bay, Second Spot · Every day at 6:45 AM");

  await section.getByRole("button", { name: "Delete Morning commute" }).click();
  await expect(section).toContainText("No briefings yet.");

  // The test briefing is in the inbox.
  await page.getByRole("link", { name: "Home", exact: true }).click();
  await expect(page.locator("[data-message-id]")).toHaveCount(1);
  await expect(page.locator("[data-message-id]")).toContainText("Commute");
});

test("a new time zone moves every briefing to the same wall-clock time there", async ({ page, context, request, baseURL }) => {
  // The account lives in Berlin, with a briefing at 07:00 on Mondays.
  await accountWithPlace(request, baseURL!, "Zone Town", context);
  await gotoHydrated(page, "/settings");
  const row = page.getByRole("region", { name: "Briefings" }).getByRole("listitem").filter({ hasText: "Zone Town morning" });
  await expect(row).toContainText(/Next: Mon 7:00\sAM/);

  const preferences = page.getByRole("region", { name: "Preferences" });
  await preferences.getByLabel("Time zone").fill("Asia/Tokyo");
  await preferences.getByLabel("Time zone").press("Enter");
  await expect(
    page.getByRole("region", { name: "Notifications (F8)" }).getByRole("listitem").filter({ hasText: "Preferences saved." }),
  ).toBeVisible();
  // Still 07:00, now Tokyo's: not Berlin's 07:00 shown in Tokyo time (2 or 3 PM), on screen and after a reload.
  await expect(row).toContainText(/Next: Mon 7:00\sAM/);
  await gotoHydrated(page, "/settings");
  await expect(row).toContainText(/Next: Mon 7:00\sAM/);
});
