import { expect, gotoHydrated, test } from "./fixtures";
import { accountWithPlace } from "./support/graphql";

/*
 * Issue 35 (decision 018): the signed-in home hydrates the dashboard's server HTML in a pass of its own rather than
 * dropping it for a skeleton and rendering it again, and the live stream still delivers what happened in between
 * without moving the data the dashboard hydrates from (React error #418 once did: app/lib/page-hydration.ts).
 */

/** Before the page's scripts: records whether a loading skeleton ever appears or a forecast card is ever removed. */
function watchServerHtml() {
  const seen = { skeleton: false, cardRemoved: false };
  (window as unknown as { serverHtml: typeof seen }).serverHtml = seen;
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes)
        if (node instanceof Element && node.matches("[role='status'].animate-pulse")) seen.skeleton = true;
      for (const node of record.removedNodes)
        if (
          node instanceof Element &&
          (node.matches("[data-testid='forecast-card']") || node.querySelector("[data-testid='forecast-card']"))
        )
          seen.cardRemoved = true;
    }
  }).observe(document, { childList: true, subtree: true });
}

test("the signed-in home keeps its server-rendered places through hydration: no skeleton, no card rendered again", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  await accountWithPlace(request, baseURL!, "Steady Harbour", context);
  await page.addInitScript(watchServerHtml);
  await gotoHydrated(page, "/");
  await expect(page.getByTestId("forecast-card")).toHaveCount(1);
  await expect(page.getByRole("region", { name: /^Inbox/ })).toBeVisible();
  // Past the first idle moment: what loads then (tooltips, the live stream) is in too.
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 2000 })));
  expect(await page.evaluate(() => (window as unknown as { serverHtml: unknown }).serverHtml)).toEqual({
    skeleton: false,
    cardRemoved: false,
  });
});

test("a message written right after the page hydrated arrives live", async ({ page, context, request, baseURL }) => {
  const account = await accountWithPlace(request, baseURL!, "Quick Quay", context);
  await gotoHydrated(page, "/");
  // Sent at once: the stream may not be open yet, and resumes from the page's own point in time.
  const sent = await account.sendBriefing();
  await expect(page.locator(`[data-message-id="${sent.id}"]`)).toContainText(sent.title);
  await expect(page.getByTestId("unread-badge")).toHaveText("1");
});

test("a message delivered live while the dashboard's code still loads waits for its hydration: no text the server did not write (#418)", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  const account = await accountWithPlace(request, baseURL!, "Held Harbour", context);
  // The dashboard's code is held until its message has reached the page: the race made certain.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/dashboard-[\w-]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  const socket = page.waitForEvent("websocket", (webSocket) => new URL(webSocket.url()).pathname === "/graphql");
  await page.goto("/");
  // The header's unread badge opens the stream once the root has hydrated, while the dashboard still waits for its code.
  const frames: string[] = [];
  (await socket).on("framereceived", (frame) => frames.push(String(frame.payload)));
  const sent = await account.sendBriefing();
  await expect.poll(() => frames.some((payload) => payload.includes(sent.id))).toBe(true);
  // The page is not hydrated while a part of it is not: its clicks would be lost, its data must stand still.
  expect(await page.locator("html").getAttribute("data-hydrated")).toBeNull();
  release();
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await expect(page.locator(`[data-message-id="${sent.id}"]`)).toContainText(sent.title);
  await expect(page.getByTestId("inbox-unread")).toHaveText("Unread messages: 1");
  await expect(page.getByTestId("unread-badge")).toHaveText("1");
});
