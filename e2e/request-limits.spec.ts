import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, gotoHydrated, pinClock, test } from "./fixtures";
import { ROOT, startAppServer, type AppServer } from "./support/app-server";
import { E2eRequestLimitsLogOutDocument } from "./support/documents.generated";
import { accountWithPlace, operationBody, signInBrowser } from "./support/graphql";

const de = JSON.parse(readFileSync(path.join(ROOT, "locales/de-DE/common.json"), "utf8")) as { errors: { rateLimited: string } };

let server: AppServer;
test.beforeAll(async () => {
  const weather = process.env.E2E_FAKE_WEATHER_URL!;
  // Four mutations a minute per address (the setup's sign-up, place, briefing and message); loopback is a trusted
  // proxy, so the setup below speaks as another address than the browser's.
  server = await startAppServer({
    MUTATION_LIMIT: "4",
    TRUST_PROXY: "loopback",
    OPEN_METEO_FORECAST_URL: weather,
    OPEN_METEO_GEOCODING_URL: weather,
  });
});
test.afterAll(async () => {
  await server?.stop();
});

/**
 * The limit counts per minute and lets the minute before fade out over the next (a sliding window, decision 014): spent
 * in a minute's last seconds, part of the budget is back a few seconds later, and a test that relies on the refusal
 * would pass or fail by the clock. So its spending starts with at least 20 s of the minute left.
 */
async function startEarlyInAMinute(marginMs = 20_000) {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

test("a mutation over the limit is refused with 429, and the page says so in the person's language", async ({
  browser,
  playwright,
  consoleGuard,
}) => {
  // The browser reports the refused request itself.
  consoleGuard.allow(/status of 429/);
  const setup = await playwright.request.newContext({ extraHTTPHeaders: { "x-forwarded-for": "198.51.100.40" } });
  const account = await accountWithPlace(setup, server.baseURL, "Limit Lagoon");
  const message = await account.sendBriefing();
  await setup.dispose();

  // The browser's address (127.0.0.1) spends its mutations of the minute.
  await startEarlyInAMinute();
  for (let i = 0; i < 4; i++) {
    const spent = await fetch(`${server.baseURL}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(operationBody(E2eRequestLimitsLogOutDocument)),
    });
    expect(spent.status).toBe(200);
  }

  const context = await browser.newContext({ baseURL: server.baseURL, locale: "de-DE", extraHTTPHeaders: { "Accept-Language": "de-DE" } });
  await pinClock(context);
  await context.addCookies([{ name: "i18n_redirected", value: "de-DE", url: server.baseURL }]);
  await signInBrowser(context, server.baseURL, account.token);
  const page = await context.newPage();
  const refused = page.waitForResponse((response) => response.url().endsWith("/graphql") && response.status() === 429);
  await gotoHydrated(page, "/");
  await page.locator(`[data-message-id="${message.id}"]`).getByRole("button", { name: "Als gelesen markieren" }).click();
  const response = await refused;
  expect(Number(response.headers()["retry-after"])).toBeGreaterThan(0);
  expect(((await response.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0]!.extensions.code).toBe("RATE_LIMITED");
  await expect(page.getByRole("listitem").getByText(de.errors.rateLimited, { exact: true })).toBeVisible();
  await context.close();
});
