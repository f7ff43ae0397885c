import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, gotoHydrated, pinClock, test } from "./fixtures";
import { startAppServer } from "./support/app-server";
import { accountWithPlace, apiAs, logInApi, recordGraphQLOperations, signInBrowser } from "./support/graphql";
import { storedOnDevice } from "./support/browser-storage";
import { waitForOfflineReady } from "./support/pwa";

/** Resolves once the page's WebSocket to /graphql is acknowledged by the server (listen before loading). */
function webSocketAcknowledged(page: Page) {
  return new Promise<void>((resolve) => {
    page.on("websocket", (socket) => {
      if (new URL(socket.url()).pathname !== "/graphql") return;
      socket.on("framereceived", (frame) => {
        if (String(frame.payload).includes("connection_ack")) resolve();
      });
    });
  });
}

const message = (page: Page, id: string) => page.locator(`[data-message-id="${id}"]`);

test.describe("the GraphQL client", () => {
  test("a server-rendered page restores its data in the browser: no GraphQL request on hydration or on the way back", async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    const account = await accountWithPlace(request, baseURL!, "Hydration Harbour", context);
    const sent = await account.sendBriefing();
    // HTTP requests to /graphql (a WebSocket upgrade is not one of them).
    const requests = recordGraphQLOperations(page);

    const response = await gotoHydrated(page, "/");
    const html = await response!.text();
    expect(html).toContain('id="graphql-data"');
    expect(html).toContain("Hydration Harbour");
    await expect(page.getByTestId("places")).toContainText("Hydration Harbour");
    await expect(message(page, sent.id)).toContainText(sent.title);
    await expect(page.getByTestId("unread-badge")).toHaveText("1");
    // The page's background work (service worker, offline copies) is done: still no request.
    await waitForOfflineReady(page);
    expect(requests).toEqual([]);

    // Client-side navigation reads the same cache: settings fetches only what / did not
    // load, and going back to / costs nothing.
    await page.getByRole("link", { name: "Settings" }).click();
    await expect(page.getByText(`Signed in as ${account.email}`)).toBeVisible();
    const settingsOnly = ["AccountSessions", "Briefings", "Settings"];
    expect(requests.map((operation) => operation.operationName).sort()).toEqual(settingsOnly);
    await page.getByRole("link", { name: "Home", exact: true }).click();
    await expect(message(page, sent.id)).toBeVisible();
    expect(requests).toHaveLength(settingsOnly.length);
  });

  test("a new message appears live, without a reload, and counts as unread", async ({ page, context, request, baseURL }) => {
    const account = await accountWithPlace(request, baseURL!, "Live Lagoon", context);
    const acknowledged = webSocketAcknowledged(page);
    await gotoHydrated(page, "/");
    await expect(page.getByText("No messages yet.")).toBeVisible();
    await acknowledged;
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

    const first = await account.sendBriefing();
    await expect(message(page, first.id)).toContainText(first.title);
    await expect(page.getByTestId("unread-badge")).toHaveText("1");
    await expect(page.getByTestId("inbox-unread")).toHaveText("Unread messages: 1");
    const second = await account.sendBriefing();
    await expect(page.locator("[data-message-id]").first()).toHaveAttribute("data-message-id", second.id);
    await expect(page.getByTestId("unread-badge")).toHaveText("2");
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  });

  test("after logging out of A and into B, nothing of A is left in the page or its cache", async ({ page, context, request, baseURL }) => {
    const a = await accountWithPlace(request, baseURL!, "Alpha Point", context);
    const b = await accountWithPlace(request, baseURL!, "Bravo Bay");
    const aMessage = await a.sendBriefing();
    const signedInPage = await gotoHydrated(page, "/");
    // A signed-in page is never stored by the browser's HTTP cache.
    expect(signedInPage!.headers()["cache-control"]).toBe("private, no-store");
    await expect(page.getByTestId("places")).toContainText("Alpha Point");
    await expect(message(page, aMessage.id)).toBeVisible();
    // A's data is cached on the device for offline use (so the checks after log-out mean something).
    await expect.poll(() => storedOnDevice(page), { timeout: 15_000 }).toContain("Alpha Point");

    await page.getByRole("link", { name: "Settings" }).click();
    const [logOut] = await Promise.all([
      page.waitForResponse(
        (response) => response.request().method() === "POST" && new URL(response.url()).pathname.startsWith("/settings"),
      ),
      page.getByRole("button", { name: "Log out" }).click(),
    ]);
    expect((await logOut.allHeaders())["clear-site-data"]).toBe('"cache"');
    await expect(page.getByRole("button", { name: "Log in" })).toBeVisible();
    await page.getByRole("link", { name: "Home", exact: true }).click();
    await expect(page.getByText("Create an account to save places")).toBeVisible();
    await expect(page.locator("body")).not.toContainText("Alpha Point");
    await expect(page.getByTestId("unread-badge")).toHaveCount(0);
    // Nor on the device: the persisted GraphQL cache and the offline pages of A are gone.
    await expect.poll(() => storedOnDevice(page), { timeout: 15_000 }).not.toContain("Alpha Point");
    expect(await storedOnDevice(page)).not.toContain(aMessage.id);

    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByLabel("Email").fill(b.email);
    await page.getByLabel("Password").fill(b.password);
    await page.getByRole("button", { name: "Log in" }).click();
    // Logging in lands on Home.
    await expect(page).toHaveURL(/\/$/, { timeout: 15_000 }); // scrypt and a page load, on a busy machine
    await expect(page.getByTestId("places")).toContainText("Bravo Bay");
    await expect(page.locator("body")).not.toContainText("Alpha Point");
    await expect.poll(() => storedOnDevice(page), { timeout: 15_000 }).toContain("Bravo Bay");
    expect(await storedOnDevice(page)).not.toContain("Alpha Point");
    await expect(message(page, aMessage.id)).toHaveCount(0);
    // B's live stream is B's: A's new message does not arrive, B's does.
    const bMessage = await b.sendBriefing();
    // A's browser token was revoked at log-out; A writes from another device.
    await a.sendBriefing(await logInApi(request, baseURL!, a.email, a.password));
    await expect(message(page, bMessage.id)).toBeVisible();
    await expect(page.locator("[data-message-id]")).toHaveCount(1);
  });
});

test.describe("a WebSocket closed for good", () => {
  test("a fatal close code is not retried, and the page says live updates stopped", async ({ page, context, request, baseURL }) => {
    await accountWithPlace(request, baseURL!, "Alpha Point", context);
    let connections = 0;
    // The server side of the socket, played by the test: it refuses the connection with 4400.
    await page.routeWebSocket(/\/graphql$/, (socket) => {
      connections++;
      socket.onMessage(() => socket.close({ code: 4400, reason: "Invalid message received" }));
    });
    await gotoHydrated(page, "/");
    const toast = page
      .getByRole("region", { name: "Notifications (F8)" })
      .getByRole("listitem")
      .filter({ hasText: "4400: Invalid message received" });
    await expect(toast).toContainText("Live updates stopped");
    // A retry would come after 1 s plus up to 1 s of jitter.
    await page.waitForTimeout(2_500);
    expect(connections).toBe(1);
  });
});

test.describe("a WebSocket closed because its session ended", () => {
  test("4401 is not retried, and is not reported as a failure", async ({ page, context, request, baseURL }) => {
    await accountWithPlace(request, baseURL!, "Alpha Point", context);
    let connections = 0;
    let closed = false;
    // The server side of the socket, played by the test: the API closes a logged-out session's socket with 4401.
    await page.routeWebSocket(/\/graphql$/, (socket) => {
      connections++;
      socket.onMessage(() => {
        socket.close({ code: 4401, reason: "Unauthorized: the session has ended" });
        closed = true;
      });
    });
    // Every toast the page ever shows, even one that is gone again by the time the test looks.
    await page.addInitScript(() => {
      const shown: string[] = ((window as unknown as { shownToasts: string[] }).shownToasts = []);
      new MutationObserver((records) => {
        for (const record of records)
          for (const node of record.addedNodes) {
            if (!(node instanceof HTMLElement)) continue;
            for (const toast of [node, ...node.querySelectorAll("li.toast")])
              if (toast.matches("li.toast")) shown.push(toast.textContent ?? "");
          }
      }).observe(document, { childList: true, subtree: true });
    });
    await gotoHydrated(page, "/");
    await expect.poll(() => closed).toBe(true);
    // A retry would come after 1 s plus up to 1 s of jitter.
    await page.waitForTimeout(2_500);
    expect(connections).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { shownToasts: string[] }).shownToasts)).toEqual([]);
  });
});

test.describe("subscriptions across a server restart", () => {
  test("the page reconnects and shows the message written while the server was down", async ({ browser, request, consoleGuard }) => {
    test.setTimeout(90_000);
    // While the server is down the browser logs its failed WebSocket and fetch attempts.
    consoleGuard.allow(/WebSocket connection to .* failed|ERR_CONNECTION_REFUSED/);
    const dataDir = mkdtempSync(path.join(tmpdir(), "weatherbot-restart-"));
    const weather = process.env.E2E_FAKE_WEATHER_URL!;
    const env = { DATA_DIR: dataDir, OPEN_METEO_FORECAST_URL: weather, OPEN_METEO_GEOCODING_URL: weather };
    let server = await startAppServer(env);
    const port = String(server.port);
    try {
      const account = await accountWithPlace(request, server.baseURL, "Restart Reef");
      const context = await browser.newContext({ baseURL: server.baseURL });
      await pinClock(context);
      await signInBrowser(context, server.baseURL, account.token);
      const page = await context.newPage();
      page.on("console", (entry) => {
        if (entry.type() === "error" && !/WebSocket connection to .* failed|ERR_CONNECTION_REFUSED/.test(entry.text())) {
          throw new Error(`unexpected console error: ${entry.text()}`);
        }
      });
      const acknowledged = webSocketAcknowledged(page);
      await gotoHydrated(page, "/");
      await acknowledged;
      const before = await account.sendBriefing();
      await expect(message(page, before.id)).toBeVisible();

      // Another process on the same database writes a message while the page's server is down. It is started first:
      // the page's five retries (about 31 s, the seed's constant) must outlast the downtime on a busy machine.
      const other = await startAppServer(env);
      await server.stop();
      const missed = await account.sendBriefing(apiAs(request, other.baseURL, account.token));
      await expect(message(page, missed.id)).toHaveCount(0);

      server = await startAppServer({ ...env, PORT: port });
      await other.stop();
      await expect(message(page, missed.id)).toContainText(missed.title, { timeout: 45_000 });
      // And the stream is live again.
      const after = await account.sendBriefing();
      await expect(message(page, after.id)).toBeVisible();
      await expect(page.locator("[data-message-id]").first()).toHaveAttribute("data-message-id", after.id);
      await expect(page.getByTestId("unread-badge")).toHaveText("3");
      await context.close();
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
