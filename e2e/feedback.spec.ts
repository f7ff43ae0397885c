import type { Page } from "@playwright/test";
import { expect, gotoHydrated, test } from "./fixtures";
import { uniqueEmail } from "./support/graphql";

const notifications = (page: Page) => page.getByRole("region", { name: "Notifications (F8)" }).getByRole("listitem");

/**
 * Every toast the page shows from now on, as "variant: text", kept after it closes (a
 * toast lasts five seconds; a test asks what was ever raised).
 */
async function recordToasts(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __toasts: string[] }).__toasts = seen;
    const ids = new WeakSet<Element>();
    new MutationObserver(() => {
      for (const toast of document.querySelectorAll("li.toast[data-variant]")) {
        if (ids.has(toast) || !toast.textContent) continue;
        ids.add(toast);
        seen.push(`${toast.getAttribute("data-variant")}: ${toast.textContent}`);
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => [...(window as unknown as { __toasts: string[] }).__toasts]);
}

/** Waits until no /graphql request of the page is still open. */
function trackGraphQL(page: Page) {
  let open = 0;
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/graphql") open++;
  });
  const done = (request: import("@playwright/test").Request) => {
    if (new URL(request.url()).pathname === "/graphql") open--;
  };
  page.on("requestfinished", done);
  page.on("requestfailed", done);
  return () => expect.poll(() => open).toBe(0);
}

test("logging out says so, with no error toast about the session that just ended", async ({ page }) => {
  const toasts = await recordToasts(page);
  const settled = trackGraphQL(page);
  await gotoHydrated(page, "/settings");
  await page.getByLabel("Email").fill(uniqueEmail("logout"));
  await page.getByLabel("Password").fill("a sturdy passphrase");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("button", { name: "Log out" })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole("heading", { name: "Places" })).toBeVisible();

  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page.getByRole("button", { name: "Log in" })).toBeVisible({ timeout: 20_000 });
  await expect(notifications(page).filter({ hasText: "You are logged out." })).toBeVisible();
  await settled();
  expect((await toasts()).filter((toast) => toast.startsWith("error"))).toEqual([]);
});
