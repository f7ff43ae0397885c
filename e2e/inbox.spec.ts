import { expect, gotoHydrated, test } from "./fixtures";
import { accountWithPlace, recordGraphQLOperations } from "./support/graphql";

test("the inbox pages by cursor, marks read, marks all read and deletes, each with one request and no refetch", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const account = await accountWithPlace(request, baseURL!, "Inbox Isle", context);
  const sent: string[] = [];
  for (let i = 0; i < 32; i++) sent.push((await account.sendBriefing()).id);
  const newestFirst = [...sent].reverse();

  await gotoHydrated(page, "/");
  const items = page.locator("[data-message-id]");
  const toasts = page.getByRole("region", { name: "Notifications (F8)" }).getByRole("listitem");
  await expect(items).toHaveCount(30);
  await expect(page.getByTestId("unread-badge")).toHaveText("32");
  const operations = recordGraphQLOperations(page);

  await page.getByRole("button", { name: "Show older messages" }).click();
  await expect(items).toHaveCount(32);
  await expect(items.last()).toHaveAttribute("data-message-id", newestFirst[31]!);
  await expect(page.getByRole("button", { name: "Show older messages" })).toHaveCount(0);

  const first = page.locator(`[data-message-id="${newestFirst[0]}"]`);
  await first.getByRole("button", { name: "Mark as read" }).click();
  await expect(first).not.toHaveAttribute("data-unread");
  await expect(page.getByTestId("unread-badge")).toHaveText("31");

  const second = page.locator(`[data-message-id="${newestFirst[1]}"]`);
  await second.getByRole("button", { name: "Delete message" }).click();
  await expect(second).toHaveCount(0);
  await expect(toasts.filter({ hasText: "Message deleted." })).toBeVisible();
  await expect(page.getByTestId("unread-badge")).toHaveText("30");

  await page.getByRole("button", { name: "Mark all read" }).click();
  await expect(toasts.filter({ hasText: "All messages are marked read." })).toBeVisible();
  await expect(page.getByTestId("inbox-unread")).toHaveText("Unread messages: 0");
  await expect(page.getByTestId("unread-badge")).toHaveCount(0);
  await expect(page.locator("[data-unread]")).toHaveCount(0);
  expect(operations.map((operation) => operation.operationName)).toEqual(["Inbox", "MarkRead", "DeleteMessage", "MarkAllRead"]);

  // The server has all of it.
  await gotoHydrated(page, "/");
  await expect(page.getByTestId("inbox-unread")).toHaveText("Unread messages: 0");
  await page.getByRole("button", { name: "Show older messages" }).click();
  await expect(items).toHaveCount(31);
});

test("a push notification's link /?message=<id> brings that message into view and focus", async ({ page, context, request, baseURL }) => {
  const account = await accountWithPlace(request, baseURL!, "Pointer Peak", context);
  const target = await account.sendBriefing();
  for (let i = 0; i < 12; i++) await account.sendBriefing();
  await page.setViewportSize({ width: 390, height: 700 });
  await gotoHydrated(page, `/?message=${target.id}`);
  const item = page.locator(`[data-message-id="${target.id}"]`);
  await expect(item).toBeFocused();
  await expect(item).toBeInViewport();
});
