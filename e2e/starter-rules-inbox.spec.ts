import AxeBuilder from "@axe-core/playwright";
import path from "node:path";
import type { Scenario } from "../tests/fakes/open-meteo";
import { expect, gotoHydrated, test } from "./fixtures";
import { ROOT } from "./support/app-server";
import {
  E2eSignUpDocument,
  E2eTicksAddPlaceDocument,
  E2eTicksInboxDocument,
  E2eTicksSettingsDocument,
} from "./support/documents.generated";
import { finishedTicks, serverWithWeather, TICK_MS } from "./support/engine-ticks";
import { apiAs, signInBrowser, uniqueEmail } from "./support/graphql";

const H = 3600;

/** Five places, at the Open-Meteo fake's cities (its forecasts name their time zones). */
const PLACES = [
  { label: "Berlin", latitude: 52.52, longitude: 13.41 },
  { label: "Paris", latitude: 48.85, longitude: 2.35 },
  { label: "London", latitude: 51.51, longitude: -0.13 },
  { label: "Reykjavík", latitude: 64.14, longitude: -21.9 },
  { label: "New York", latitude: 40.71, longitude: -74.01 },
];

/**
 * The integration test's stormy day (tests/integration/starter-rules-inbox.test.ts), from the hour the test starts in:
 * gusts in Reykjavík in three windows and in London in two, frost in Reykjavík and Berlin overnight, a thunderstorm in
 * Paris, calm in New York; all of it within the starter rules' 24 hours. Per window, that would be 9 messages.
 */
function stormyDay(start: number): Scenario {
  return (latitude, _longitude, time) => {
    const hour = (time - start) / H;
    const at = (from: number, to: number) => hour >= from && hour < to;
    const reykjavik = latitude > 60;
    const london = Math.abs(latitude - 51.5) < 0.1;
    const berlin = Math.abs(latitude - 52.5) < 0.1;
    const paris = Math.abs(latitude - 48.9) < 0.1;
    const gusts = (reykjavik && (at(3, 5) || at(9, 12) || at(18, 20))) || (london && (at(6, 8) || at(14, 15))) ? 83 : 25;
    const frost = (reykjavik || berlin) && at(10, 16);
    return {
      wind_gusts_10m: gusts,
      temperature_2m: frost ? -3 : 12,
      apparent_temperature: frost ? -6 : 10,
      weather_code: paris && at(4, 6) ? 95 : 3,
      precipitation: 0,
    };
  };
}

test("the starter rules on five places: after the engine's next tick the inbox holds one summary, each rule a line, readable at 390 px in light and dark mode", async ({
  page,
  context,
  request,
}, testInfo) => {
  // A server of its own, and up to two of its 30-second ticks waited for.
  test.setTimeout(150_000);
  const own = await serverWithWeather(stormyDay(Math.floor(Date.now() / 1000 / H) * H));
  try {
    const { baseURL } = own;
    const { signUp } = await apiAs(
      request,
      baseURL,
      null,
    )(E2eSignUpDocument, { email: uniqueEmail("starter"), password: "a sturdy passphrase" });
    const gql = apiAs(request, baseURL, signUp.token);
    // A reader in Berlin on a 24-hour clock, in km/h and °C.
    await gql(E2eTicksSettingsDocument, { input: { windSpeedUnit: "KMH", temperatureUnit: "CELSIUS", hour12: false } });
    for (const place of PLACES) await gql(E2eTicksAddPlaceDocument, place);
    await signInBrowser(context, baseURL, signUp.token);
    await page.setViewportSize({ width: 390, height: 844 });
    await gotoHydrated(page, `${baseURL}/`);
    const items = page.getByTestId("inbox").locator("[data-message-id]");
    await expect(items).toHaveCount(0);

    // The home screen's offer, taken with frost added: three rules, saved in one call whenever the ticks fall.
    await page.getByRole("button", { name: "Choose starter rules" }).click();
    const dialog = page.getByRole("dialog", { name: "Starter alert rules" });
    await dialog.getByRole("checkbox", { name: /Frost/ }).check();
    await dialog.getByRole("button", { name: "Add rules" }).click();
    await expect(
      page.getByRole("region", { name: "Notifications (F8)" }).getByRole("listitem").filter({ hasText: "Alert rules added: 3." }),
    ).toBeVisible();

    // What the first tick to read them wrote: one message, not one per rule, place or window. Read apart (as when the
    // rules were saved one by one), some would be an alert of their own and the rest a summary a tick later: never this.
    const written = async () =>
      (await gql(E2eTicksInboxDocument)).messages.edges.map(({ kind, title, urgent }) => ({ kind, title, urgent }));
    await expect
      .poll(written, { timeout: 2 * TICK_MS })
      .toEqual([{ kind: "ALERT", title: "Your new rules: 3 things ahead", urgent: true }]);
    // (No tick failed on the way.)
    await finishedTicks(request, baseURL);

    // As the reader sees it after a reload.
    await gotoHydrated(page, `${baseURL}/`);
    await expect(items).toHaveCount(1);
    const summary = items.first();
    await expect(summary.getByRole("heading")).toHaveText("Unread: Your new rules: 3 things ahead");
    await expect(page.getByTestId("inbox-unread")).toHaveText("Unread messages: 1");
    // Each rule an item of a list: the urgent one first, then the soonest; each place with its windows.
    const lineItems = summary.getByRole("list").getByRole("listitem");
    await expect(lineItems).toHaveCount(3);
    const lines = await lineItems.allInnerTexts();
    expect(lines[0]).toMatch(/^Thunderstorm in Paris from \w{3} \d{2}:\d{2} to \d{2}:\d{2}( GMT[+-]\d+)?\.$/);
    expect(lines[1]).toMatch(
      /^Gusts 83 km\/h in London \(.+\) and Reykjavík \(.+\); peak \w{3} \d{2}:\d{2}( GMT[+-]\d+)? in (London|Reykjavík)\.$/,
    );
    expect(lines[2]).toMatch(
      /^Temperature -3 °C in Berlin \(.+\) and Reykjavík \(.+\); peak \w{3} \d{2}:\d{2}( GMT[+-]\d+)? in (Berlin|Reykjavík)\.$/,
    );

    // The inbox at a phone's width, in both modes: axe finds nothing, and a picture of it (docs/screens/ when
    // SCREENSHOTS=update, to refresh the kept pictures; the test's own output otherwise, so a run leaves the tree as it was).
    const inbox = page.locator("section[aria-labelledby='inbox-heading']");
    for (const mode of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: mode });
      await expect(page.locator("html")).toHaveClass(new RegExp(`\\b${mode}\\b`));
      const results = await new AxeBuilder({ page }).include("section[aria-labelledby='inbox-heading']").analyze();
      expect(results.violations.map(({ id, nodes }) => `${id}: ${nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
      const name = `inbox-starter-rules-390-${mode}.png`;
      const kept = process.env.SCREENSHOTS === "update" ? path.join(ROOT, "docs/screens", name) : testInfo.outputPath(name);
      await inbox.screenshot({ path: kept, animations: "disabled" });
    }
  } finally {
    await own.stop();
  }
});
