import type { Page } from "@playwright/test";
import { startFakeOpenMeteo } from "../tests/fakes/open-meteo";
import { expect, gotoHydrated, pinClock, test } from "./fixtures";
import { startAppServer } from "./support/app-server";
import { goOffline, goOnline, signedInOnlineOnce, waitForOfflineQueue, waitForOfflineReady } from "./support/pwa";
import { accountWithPlace, uniqueEmail } from "./support/graphql";
import { E2eFeedbackOnServerDocument } from "./support/documents.generated";

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
  await page.getByRole("link", { name: "New here? Create an account" }).click();
  await page.getByLabel("Email").fill(uniqueEmail("logout"));
  await page.getByLabel("Password").fill("a sturdy passphrase");
  await page.getByRole("button", { name: "Create account" }).click();
  // A new account lands on Home; logging out is in Settings.
  await expect(page).toHaveURL(/\/$/, { timeout: 20_000 });
  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("button", { name: "Log out" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Places" })).toBeVisible();

  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page.getByRole("button", { name: "Log in" })).toBeVisible({ timeout: 20_000 });
  await expect(notifications(page).filter({ hasText: "You are logged out." })).toBeVisible();
  await settled();
  expect((await toasts()).filter((toast) => toast.startsWith("error"))).toEqual([]);
});

test.describe("the add-place dialog when something is down", () => {
  test("weather service down: the search list says so in place, and no toast contradicts it", async ({ browser, consoleGuard }) => {
    test.setTimeout(90_000);
    // Its own weather fake and server: injected failures must not be spent by other tests' requests.
    const weather = await startFakeOpenMeteo();
    const server = await startAppServer({ OPEN_METEO_FORECAST_URL: weather.url, OPEN_METEO_GEOCODING_URL: weather.url });
    const context = await browser.newContext({ baseURL: server.baseURL });
    await pinClock(context);
    try {
      consoleGuard.allow(/status of 5\d\d/);
      await accountWithPlace(context.request, server.baseURL, "Home", context);
      const page = await context.newPage();
      const toasts = await recordToasts(page);
      await gotoHydrated(page, "/");
      await expect(page.getByTestId("places").getByRole("link")).toHaveCount(1);
      await page.getByRole("button", { name: "Add a place" }).click();
      const dialog = page.getByRole("dialog", { name: "Add a place" });
      // Every attempt of the API's Open-Meteo client (three) fails.
      weather.failNext(500, 3);
      await dialog.getByRole("combobox", { name: "Search for a place" }).fill("Sydn");
      const listbox = dialog.getByRole("listbox", { name: "Places found" });
      await expect(listbox).toHaveText("Place search is unavailable right now. Try again in a few minutes.", { timeout: 20_000 });
      await expect(listbox).not.toContainText("No place by that name");
      expect(await toasts()).toEqual([]);
    } finally {
      await context.close();
      await server.stop();
      await weather.close();
    }
  });

  test("a toast raised while the dialog is open sits above its backdrop and can be closed", async ({
    page,
    context,
    request,
    baseURL,
    consoleGuard,
  }) => {
    consoleGuard.allow(/Failed to fetch|ERR_INTERNET_DISCONNECTED/);
    await accountWithPlace(request, baseURL!, "Home", context);
    await gotoHydrated(page, "/");
    await page.getByRole("button", { name: "Add a place" }).click();
    const dialog = page.getByRole("dialog", { name: "Add a place" });
    const search = dialog.getByRole("combobox", { name: "Search for a place" });
    await search.fill("Madr");
    await dialog.getByRole("option", { name: /Madrid/ }).click();
    await expect(dialog.getByTestId("chosen-location")).toContainText("Madrid");

    await context.setOffline(true);
    await dialog.getByRole("button", { name: "Add place" }).click();
    const toast = notifications(page).filter({ hasText: "You're offline. This needs a connection" });
    await expect(toast).toBeVisible();
    await expect(toast).not.toContainText("Network error");
    // A click lands only on what is on top and not inert: Playwright refuses to click through the backdrop.
    await toast.getByRole("button", { name: "Dismiss notification" }).click({ timeout: 5_000 });
    await expect(toast).toBeHidden();
    await expect(dialog).toBeVisible();
    await context.setOffline(false);
  });
});

test("the push switch gives up on a push service that never answers, says why, and shows push off", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await page.addInitScript(() => {
    PushManager.prototype.subscribe = () => new Promise<PushSubscription>(() => {});
  });
  await accountWithPlace(request, baseURL!, "Push Point", context);
  await context.grantPermissions(["notifications"], { origin: baseURL! });
  await gotoHydrated(page, "/settings");
  await waitForOfflineReady(page);
  const toggle = page.getByRole("switch", { name: "Push notifications" });
  await expect(toggle).toBeEnabled({ timeout: 15_000 });

  await toggle.click();
  const message = "The browser's push service didn't answer, so push notifications stay off. Try again later.";
  // The switch waits PUSH_SUBSCRIBE_TIMEOUT_MS (15 s) for the browser.
  await expect(page.getByTestId("push-problem")).toHaveText(message, { timeout: 30_000 });
  await expect(notifications(page).filter({ hasText: message })).toBeVisible();
  await expect(toggle).not.toBeChecked();
  await expect(toggle).toBeEnabled();
});

test("offline: the banner promises only what is kept; a deleted message and new preferences are kept and sent later, a search says it needs a connection", async ({
  page,
  request,
  baseURL,
  consoleGuard,
}) => {
  test.setTimeout(90_000);
  consoleGuard.allow(/ERR_INTERNET_DISCONNECTED|Failed to load resource|Failed to fetch/);
  const { account, message: sent } = await signedInOnlineOnce(page, request, baseURL!, "Offline Oasis");
  const toasts = await recordToasts(page);

  const onServer = async () => account.gql(E2eFeedbackOnServerDocument);

  // The app's banner comes from the browser's offline event; the page's own requests must fail too before anything is deleted.
  await goOffline(page);
  await expect(page.getByTestId("offline-banner")).toContainText(
    "Read marks, deleted messages, renamed places and preferences are sent when you're back online; everything else needs a connection.",
  );
  const message = page.locator(`[data-message-id="${sent.id}"]`);
  await message.getByRole("button", { name: "Delete message" }).click();
  await expect(message).toHaveCount(0);
  // Kept here, not sent (checked before the offline full load below, whose first act is to send the kept queue again).
  expect((await onServer()).messages.edges.map((edge) => edge.id)).toContain(sent.id);

  await page.getByRole("button", { name: "Add a place" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a place" });
  await dialog.getByRole("combobox", { name: "Search for a place" }).fill("Berl");
  await expect(dialog.getByRole("listbox", { name: "Places found" })).toHaveText(
    "Searching for a place needs a connection. You're offline.",
  );
  await dialog.getByRole("button", { name: "Close" }).click();

  // Offline, the navigation is a full load of the worker's copy: wait until it is hydrated.
  await page.getByRole("navigation").getByRole("link", { name: "Settings" }).click();
  await page.waitForURL("**/settings");
  // Hydrated, and the queue kept by the home page read back: only then is a change made here kept.
  await waitForOfflineQueue(page);
  const preferences = page.getByRole("region", { name: "Preferences" });
  await preferences.getByLabel("Celsius (°C)").check();
  await expect(preferences.getByLabel("Celsius (°C)")).toBeChecked();
  await expect(
    notifications(page).filter({ hasText: "Preferences changed on this device. They're sent when you're back online." }),
  ).toBeVisible();

  expect((await onServer()).me!.settings.temperatureUnit).toBe("FAHRENHEIT");
  expect((await onServer()).messages.edges.map((edge) => edge.id)).toContain(sent.id);

  await goOnline(page);
  await expect.poll(async () => (await onServer()).me!.settings.temperatureUnit).toBe("CELSIUS");
  await expect.poll(async () => (await onServer()).messages.edges.map((edge) => edge.id)).not.toContain(sent.id);
  expect((await toasts()).filter((toast) => toast.startsWith("error"))).toEqual([]);
});

test("offline, logging in says it needs a connection and keeps what was typed", async ({ page, context, consoleGuard }) => {
  test.setTimeout(60_000);
  // The page's connectivity probe and build check fail while offline.
  consoleGuard.allow(/ERR_INTERNET_DISCONNECTED|Failed to load resource|Failed to fetch/);
  await gotoHydrated(page, "/settings");
  // The worker's registration must not be cut off by going offline (the browser logs that as an error).
  await waitForOfflineReady(page);
  await context.setOffline(true);
  const email = uniqueEmail("offline");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("a sturdy passphrase");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(
    "You're offline. This needs a connection: try again when you're back online.",
  );
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await context.setOffline(false);
});
