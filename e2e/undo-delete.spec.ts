import { expect, gotoHydrated, test } from "./fixtures";
import { accountWithPlace, recordGraphQLOperations } from "./support/graphql";

test("deleting a message or a briefing offers Undo, which puts it back where it was", async ({ page, context, request, baseURL }) => {
  const account = await accountWithPlace(request, baseURL!, "Undo Valley", context);
  const sent: string[] = [];
  for (let i = 0; i < 3; i++) sent.push((await account.sendBriefing()).id);
  const newestFirst = [...sent].reverse();
  await gotoHydrated(page, "/");
  const toasts = page.getByRole("region", { name: "Notifications (F8)" }).getByRole("listitem");
  const items = page.locator("[data-message-id]");
  const order = () => items.evaluateAll((elements) => elements.map((element) => element.getAttribute("data-message-id")));
  await expect(items).toHaveCount(3);
  await expect(page.getByTestId("unread-badge")).toHaveText("3");

  // The message in the middle: gone, then back in its place and still unread, without reloading the inbox.
  const operations = recordGraphQLOperations(page);
  await page.locator(`[data-message-id="${newestFirst[1]}"]`).getByRole("button", { name: "Delete message" }).click();
  await expect(items).toHaveCount(2);
  await expect(page.getByTestId("unread-badge")).toHaveText("2");
  await toasts.filter({ hasText: "Message deleted." }).getByRole("button", { name: "Undo" }).click();
  await expect(toasts.filter({ hasText: "Message is back." })).toBeVisible();
  await expect.poll(order).toEqual(newestFirst);
  await expect(page.locator(`[data-message-id="${newestFirst[1]}"]`)).toHaveAttribute("data-unread", "true");
  await expect(page.getByTestId("unread-badge")).toHaveText("3");
  expect(operations.map((operation) => operation.operationName)).toEqual(["DeleteMessage", "RestoreMessage"]);
  // The server agrees.
  await gotoHydrated(page, "/");
  await expect.poll(order).toEqual(newestFirst);

  // A briefing, in Settings.
  await gotoHydrated(page, "/settings");
  const section = page.getByRole("region", { name: "Briefings" });
  await section.getByRole("button", { name: "Delete Undo Valley morning" }).click();
  await expect(section.getByText("No briefings yet.")).toBeVisible();
  await toasts.filter({ hasText: "Undo Valley morning deleted." }).getByRole("button", { name: "Undo" }).click();
  await expect(toasts.filter({ hasText: "Undo Valley morning is back." })).toBeVisible();
  await expect(section.getByRole("listitem").filter({ hasText: "Undo Valley morning" })).toContainText("Undo Valley");
  await gotoHydrated(page, "/settings");
  await expect(
    page.getByRole("region", { name: "Briefings" }).getByRole("listitem").filter({ hasText: "Undo Valley morning" }),
  ).toBeVisible();
});
