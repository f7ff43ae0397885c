import { startFakePostHog } from "../tests/fakes/posthog";
import { expect, gotoHydrated, test } from "./fixtures";
import { startAppServer, type AppServer } from "./support/app-server";

let fake: Awaited<ReturnType<typeof startFakePostHog>>;
let server: AppServer;

test.beforeAll(async () => {
  fake = await startFakePostHog();
  server = await startAppServer({ POSTHOG_KEY: "phc_e2e_public_key", POSTHOG_HOST: fake.url });
});
test.afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

// PostHog drops events from browsers that look automated (a headless user agent, or
// navigator.webdriver): this one presents itself as the desktop Chrome people use.
test.use({ userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36" });
test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, "webdriver", { get: () => false }));
});

const pageEvents = () =>
  fake.events
    .filter((event) => event.event === "$pageview" || event.event === "$pageleave")
    .map((event) => `${event.event} ${event.properties.current_url}`);

test("nothing is sent until the user opts in; then page views and leaves go by full path; opting out stops them", async ({ page }) => {
  test.setTimeout(60_000);
  const response = await gotoHydrated(page, `${server.baseURL}/`);
  expect(response!.headers()["content-security-policy"]).toContain(`connect-src 'self' ${fake.url}`);
  await page.getByRole("link", { name: "Settings" }).click();
  const share = page.getByLabel("Share anonymous usage data");
  // Opt-in: unticked, and nothing has left for the analytics host (well past the 3 s batch flush).
  await expect(share).not.toBeChecked();
  await page.waitForTimeout(4_000);
  expect(fake.requests.length).toBe(0);

  await share.check();
  await page.getByRole("link", { name: "Home", exact: true }).click();
  await expect.poll(pageEvents, { timeout: 15_000 }).toEqual(["$pageview /"]);
  expect(fake.events.every((event) => (event as { properties: { token?: string } }).properties.token === "phc_e2e_public_key")).toBe(true);

  await page.getByRole("link", { name: "Settings" }).click();
  await expect.poll(pageEvents, { timeout: 15_000 }).toEqual(["$pageview /", "$pageleave /", "$pageview /settings"]);

  await page.getByLabel("Share anonymous usage data").uncheck();
  await page.getByRole("link", { name: "Home", exact: true }).click();
  await page.getByRole("link", { name: "Settings" }).click();
  // Well past the 3 s batch flush: nothing more arrived.
  await page.waitForTimeout(4_000);
  expect(pageEvents()).toEqual(["$pageview /", "$pageleave /", "$pageview /settings"]);

  // The choice survives a reload, and the library is not even started.
  const before = fake.requests.length;
  await gotoHydrated(page, `${server.baseURL}/`);
  await expect(page.getByRole("link", { name: "Settings" })).toBeVisible();
  await page.waitForTimeout(1_000);
  expect(fake.requests.length).toBe(before);
});

test("without a key, no request leaves for any other host", async ({ page, baseURL }) => {
  const foreign: string[] = [];
  page.on("request", (request) => {
    if (!request.url().startsWith(baseURL!) && !request.url().startsWith("data:")) foreign.push(request.url());
  });
  await gotoHydrated(page, "/");
  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page.getByText("This server collects no usage data.")).toBeVisible();
  // Nothing to switch on: no toggle at all.
  await expect(page.getByLabel("Share anonymous usage data")).toHaveCount(0);
  await page.waitForTimeout(1_000);
  expect(foreign).toEqual([]);
});
