import { expect, gotoHydrated, test } from "./fixtures";
import { accountWithPlace } from "./support/graphql";
import { E2eDialogFocusAddBravoDocument } from "./support/documents.generated";

test("every opening of “Add a place” focuses the search; after “Choose a place first” the results come back on focus", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  await accountWithPlace(request, baseURL!, "Focus Field", context);
  await gotoHydrated(page, "/");
  const open = page.getByRole("button", { name: "Add a place" }).first();
  const dialog = page.getByRole("dialog", { name: "Add a place" });
  const search = dialog.getByRole("combobox", { name: "Search for a place" });

  for (let opening = 1; opening <= 3; opening++) {
    await open.click();
    await expect(dialog).toBeVisible();
    await expect(search, `opening ${opening}`).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
  }

  await open.click();
  await expect(search).toBeFocused();
  await search.fill("Par");
  await expect(dialog.getByRole("option", { name: /Paris/ })).toBeVisible();
  // Submitting without choosing: the field error, and the results close as the field loses focus.
  await dialog.getByRole("button", { name: "Add place" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Choose a place from the search first.");
  await expect(dialog.getByRole("listbox")).toBeHidden();
  await search.focus();
  await expect(dialog.getByRole("option", { name: /Paris/ })).toBeVisible();
  await search.press("ArrowDown");
  await search.press("Enter");
  await expect(dialog.getByTestId("chosen-location")).toContainText("Paris");
  // A chosen place does not reopen the list when the field is focused again.
  await dialog.getByLabel("Label (optional)").focus();
  await search.focus();
  await expect(dialog.getByRole("listbox")).toBeHidden();
});

test("“Add a place” closes on one Escape after typing, with its results open or not, and gives focus back", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  await accountWithPlace(request, baseURL!, "Escape Edge", context);
  await gotoHydrated(page, "/");
  const open = page.getByRole("button", { name: "Add a place" }).first();
  const dialog = page.getByRole("dialog", { name: "Add a place" });
  const search = dialog.getByRole("combobox", { name: "Search for a place" });

  await open.click();
  await search.fill("Par");
  await expect(dialog.getByRole("option", { name: /Paris/ })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();

  // A place chosen (the list closed, its name in the field): the field's Escape would clear the text first.
  await open.click();
  await search.fill("Ber");
  await expect(dialog.getByRole("option", { name: /Berlin/ })).toBeVisible();
  await search.press("ArrowDown");
  await search.press("Enter");
  await expect(dialog.getByTestId("chosen-location")).toContainText("Berlin");
  await expect(search).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
});

test("the briefing editor focuses its name field on every opening, not only the first", async ({ page, context, request, baseURL }) => {
  await accountWithPlace(request, baseURL!, "Focus Brief", context);
  await gotoHydrated(page, "/settings");
  const dialog = page.getByRole("dialog", { name: "New briefing" });
  for (let opening = 1; opening <= 2; opening++) {
    await page.getByRole("button", { name: "New briefing" }).click();
    await expect(dialog.getByLabel("Name"), `opening ${opening}`).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
  }
});

test.describe("focus after removing something", () => {
  test("deleting a message or marking it read keeps focus in the inbox; the last one leaves it on the heading", async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    const account = await accountWithPlace(request, baseURL!, "Focus Inbox", context);
    const sent: string[] = [];
    for (let i = 0; i < 3; i++) sent.push((await account.sendBriefing()).id);
    const [oldest, middle, newest] = sent as [string, string, string];
    await gotoHydrated(page, "/");
    const item = (id: string) => page.locator(`[data-message-id="${id}"]`);

    // Marking read: the button goes away, focus moves to the same message's next control.
    await item(newest).getByRole("button", { name: "Mark as read" }).focus();
    await page.keyboard.press("Enter");
    await expect(item(newest)).not.toHaveAttribute("data-unread");
    await expect(item(newest).getByRole("button", { name: "Delete message" })).toBeFocused();

    // Deleting: focus moves to the next message's delete button.
    await page.keyboard.press("Enter");
    await expect(item(newest)).toHaveCount(0);
    await expect(item(middle).getByRole("button", { name: "Delete message" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(item(middle)).toHaveCount(0);
    await expect(item(oldest).getByRole("button", { name: "Delete message" })).toBeFocused();
    // The last one: the inbox heading.
    await page.keyboard.press("Enter");
    await expect(item(oldest)).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "Inbox", level: 2 })).toBeFocused();
  });

  test("removing a place moves focus to the next row, the last one to the section heading; Undo stays reachable", async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    const account = await accountWithPlace(request, baseURL!, "Alpha", context);
    await account.gql(E2eDialogFocusAddBravoDocument);
    await gotoHydrated(page, "/settings");
    const section = page.getByRole("region", { name: "Places" });

    await section.getByRole("button", { name: "Remove Alpha" }).focus();
    await page.keyboard.press("Enter");
    await expect(section.getByRole("button", { name: "Remove Alpha" })).toHaveCount(0);
    await expect(section.getByRole("button", { name: "Remove Bravo" })).toBeFocused();

    // The Undo toast stays well past the usual five seconds, and F8 reaches its button.
    const toast = page.getByRole("region", { name: "Notifications (F8)" }).getByRole("listitem").filter({ hasText: "Alpha removed." });
    await expect(toast).toBeVisible();
    await page.clock.runFor(6_000);
    await expect(toast).toBeVisible();
    // F8 focuses the notifications; Tab enters the toast, then its Undo.
    await page.keyboard.press("F8");
    await page.keyboard.press("Tab");
    await expect(toast).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(toast.getByRole("button", { name: "Undo" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(section.getByRole("button", { name: "Remove Alpha" })).toBeVisible();

    await section.getByRole("button", { name: "Remove Bravo" }).focus();
    await page.keyboard.press("Enter");
    await expect(section.getByRole("button", { name: "Remove Bravo" })).toHaveCount(0);
    await expect(section.getByRole("button", { name: "Remove Alpha" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(section.getByText("You have no places yet.")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Places", level: 2 })).toBeFocused();
  });
});
