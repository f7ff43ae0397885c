import AxeBuilder from "@axe-core/playwright";
import { expect, gotoHydrated, test } from "./fixtures";
import { accountWithPlace } from "./support/graphql";
import { E2eAirQualityAddNewYorkDocument, E2eAirQualityCelsiusDocument } from "./support/documents.generated";
import { signedInOnlineOnce } from "./support/pwa";
import { openPlace } from "./support/places";

/*
 * The fake air-quality API: Berlin (Home) has grass and birch pollen, New York (Harbor) none (the
 * provider has pollen in Europe only); US AQI 20–64 and European AQI 12–41 everywhere.
 */
const US_LINE = /^Air quality: (good|moderate) \(US AQI \d+\) · PM2\.5 [\d.]+ µg\/m³/;
const POLLEN = / · Pollen \(grains\/m³\): grass \d+/;
/** What a browser cut off from the network logs on its console: expected offline. */
const NETWORK_GONE = /ERR_INTERNET_DISCONNECTED|Failed to load resource|Failed to fetch/;

test("a US reader sees the US AQI on every card, with PM2.5, and the pollen where the provider offers it", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  // A US English account: °F, so the US index.
  const account = await accountWithPlace(request, baseURL!, "Home", context);
  await account.gql(E2eAirQualityAddNewYorkDocument);
  await gotoHydrated(page, "/");
  const home = page.getByRole("article", { name: "Home" }).getByTestId("air-quality");
  await expect(home).toHaveText(US_LINE);
  await expect(home).toHaveText(POLLEN);
  // A place in New York, opened from the switcher: the index and PM2.5, no pollen.
  const harbor = (await openPlace(page, "Harbor")).getByTestId("air-quality");
  await expect(harbor).toHaveText(US_LINE);
  await expect(harbor).not.toContainText("Pollen");
});

test("switching to °C names the air-quality scale it brings, in Settings and on the card", async ({ page, context, request, baseURL }) => {
  await accountWithPlace(request, baseURL!, "Home", context);
  await gotoHydrated(page, "/");
  const line = page.getByRole("article", { name: "Home" }).getByTestId("air-quality");
  await expect(line).toHaveText(US_LINE);

  await page.getByRole("link", { name: "Settings" }).click();
  const temperature = page.getByRole("region", { name: "Preferences" }).getByRole("group", { name: "Temperature" });
  // Said before anything changes: the choice of unit is also the choice of scale.
  await expect(temperature).toHaveAccessibleDescription("Air quality is given on the US AQI with °F and on the European AQI with °C.");
  await temperature.getByLabel("Celsius (°C)").check();
  const saved = page.getByRole("region", { name: "Notifications (F8)" }).getByRole("listitem").filter({ hasText: "Preferences saved." });
  await expect(saved).toContainText(
    "Air quality is now given on the European AQI: its numbers and bands differ from the other scale's. " +
      "Your air-quality alert rules keep the scale they were made with.",
  );

  await page.getByRole("link", { name: "Home", exact: true }).click();
  await expect(line).toHaveText(/^Air quality: (good|fair|moderate) \(European AQI \d+\)/);
});

test("a European reader (°C) sees the European AQI; in German, the line is German", async ({ page, context, request, baseURL }) => {
  const account = await accountWithPlace(request, baseURL!, "Home", context);
  await account.gql(E2eAirQualityCelsiusDocument);
  await gotoHydrated(page, "/");
  const line = page.getByRole("article", { name: "Home" }).getByTestId("air-quality");
  await expect(line).toHaveText(
    /^Air quality: (good|fair|moderate) \(European AQI \d+\) · PM2\.5 [\d.]+ µg\/m³ · Pollen \(grains\/m³\): grass \d+/,
  );
  await context.addCookies([{ name: "i18n_redirected", value: "de-DE", url: baseURL! }]);
  await gotoHydrated(page, "/");
  await expect(line).toHaveText(
    /^Luftqualität: (gut|ausreichend|mäßig) \(Europäischer LQI \d+\) · PM2,5 [\d,]+ µg\/m³ · Pollen \(Körner\/m³\): Gräser \d+/,
  );
});

test("after a switch of language in the browser, the line loads its texts in the new language", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  await accountWithPlace(request, baseURL!, "Home", context);
  await gotoHydrated(page, "/settings");
  const requested: string[] = [];
  page.on("request", (sent) => requested.push(new URL(sent.url()).pathname));
  await page.getByLabel("Interface language").selectOption("fr-FR");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "fr-FR");
  // A client navigation: the card renders in the browser, the French texts of the line come in a chunk of their own.
  await page.getByRole("navigation").getByRole("link", { name: "Accueil" }).click();
  await expect(page.getByRole("article", { name: "Home" }).getByTestId("air-quality")).toHaveText(
    /^Qualité de l’air : (bonne|modérée) \(IQA américain \d+\) · PM2,5 [\d,]+ µg\/m³ · Pollens \(grains\/m³\) : graminées \d+/,
  );
  expect(requested.filter((pathname) => /\/assets\/locale-fr-FR-air-[\w-]{8}\.js$/.test(pathname))).toHaveLength(1);
});

for (const mode of ["light", "dark"] as const) {
  test(`the air-quality line has no serious or critical accessibility violations in ${mode} mode`, async ({
    page,
    context,
    request,
    baseURL,
  }, testInfo) => {
    await page.emulateMedia({ colorScheme: mode });
    const account = await accountWithPlace(request, baseURL!, "Axe Air", context);
    await account.gql(E2eAirQualityAddNewYorkDocument);
    await gotoHydrated(page, "/");
    // One place open at a time: its line.
    await expect(page.getByTestId("air-quality")).toHaveCount(1);
    const results = await new AxeBuilder({ page }).include("[data-testid=forecast-card]").analyze();
    const serious = results.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(" | ")}`);
    expect(serious).toEqual([]);
    // Kept as test artefacts: the cards at a phone's width and a desktop's.
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 844 });
      await page.screenshot({ path: testInfo.outputPath(`air-quality-${mode}-${width}.png`), fullPage: true });
    }
  });
}

test("offline, the card shows the air as last seen, with the data's age", async ({ page, context, request, baseURL, consoleGuard }) => {
  consoleGuard.allow(NETWORK_GONE);
  await signedInOnlineOnce(page, request, baseURL!, "Offline Air");
  const line = page.getByRole("article", { name: "Offline Air" }).getByTestId("air-quality");
  const seen = await line.textContent();
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId("offline-banner")).toBeVisible();
  // Its code is a chunk of its own, loaded while hydrating: the worker caches it for offline use.
  await expect(line).toHaveText(seen!);
  await expect(page.getByRole("article", { name: "Offline Air" }).getByText(/^Updated /)).toBeVisible();
  await context.setOffline(false);
});
