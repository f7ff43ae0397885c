/**
 * Issue 35's screenshots: `/` (visitor, signed in with no place, with five places), a place's full
 * view (`/?place=ID`), the alert rules and the inbox, at 390 and 1280 px in light and dark, saved under
 * docs/screens/ (device scale 1, to keep them small), with axe run on each screen: any violation
 * is printed and the script exits non-zero. Needs the production build:
 *
 *   npm run build && node scripts/test-clock.mjs npx tsx scripts/screens.ts
 *
 * (the test clock pins the server's day, so the images change only when the screens do). The
 * app's weather comes from the loopback Open-Meteo fake; screens are found by their roles and
 * names, so a redesigned home screen still gets its pictures.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { chromium, expect, type Browser, type Locator, type Page } from "@playwright/test";
import { SESSION_COOKIE } from "../app/shared/session-cookie";
import { ROOT, startAppServer } from "../e2e/support/app-server";
import { CHROMIUM_ARGS, CHROMIUM_ENV, CHROMIUM_PATH } from "../e2e/support/chromium";
import { startFakeOpenMeteo } from "../tests/fakes/open-meteo";
import { graphql } from "./bench/graphql";

const OUT_DIR = path.join(ROOT, "docs/screens");
const WIDTHS = [390, 1280] as const;
const MODES = ["light", "dark"] as const;

type Account = { token: string; placeIds: string[] };

/** The busy account's places, found by the search as a person adds them (a label of their own on two). */
const PLACES: ReadonlyArray<readonly [query: string, label: string | null]> = [
  ["Zurich", "Home"],
  ["Berlin", "Office"],
  ["Paris", null],
  ["London", null],
  ["Madrid", null],
];

async function account(api: string, email: string): Promise<Account> {
  const { signUp } = await graphql(
    api,
    `
      mutation ($email: String!) {
        signUp(email: $email, password: "screens passphrase", timeZone: "Europe/Berlin") {
          token
        }
      }
    `,
    { email },
  );
  const token = signUp.token as string;
  return { token, placeIds: [] };
}

/**
 * A place saved from the search, as the "Add a place" dialog saves it: with its name, country and time zone (saved by
 * its coordinates alone, as "Use my location" does, it has none of them, and the pictures showed coordinates).
 */
async function addSearchedPlace(api: string, token: string, query: string, label: string | null): Promise<string> {
  const { searchLocations } = await graphql(
    api,
    `
      query ($query: String!) {
        searchLocations(query: $query) {
          id
        }
      }
    `,
    { query },
    token,
  );
  const { addPlace } = await graphql(
    api,
    `
      mutation ($locationId: ID!, $label: String) {
        addPlace(locationId: $locationId, label: $label) {
          id
        }
      }
    `,
    { locationId: searchLocations[0].id, label },
    token,
  );
  return addPlace.id as string;
}

/**
 * Five places, three alert rules and a few messages in the inbox. The account reads °F, mph and inches (the API's
 * defaults for a request without a language): thresholds are metric, chosen to read round there (40 mph, 0.5 in).
 */
async function busyAccount(api: string): Promise<Account> {
  const busy = await account(api, "screens-five@example.com");
  for (const [query, label] of PLACES) busy.placeIds.push(await addSearchedPlace(api, busy.token, query, label));
  for (const rule of [
    '{ name: "Strong gusts", metric: WIND_GUSTS, threshold: 64.37 }',
    '{ name: "Heavy rain", metric: PRECIPITATION, threshold: 12.7 }',
    '{ name: "Smoky air", metric: AQI, threshold: 100 }',
  ]) {
    await graphql(api, `mutation { saveAlertRule(input: ${rule}) { id } }`, {}, busy.token).catch((error: unknown) => {
      // A metric this build does not know leaves the list one rule shorter, not the run failed.
      console.warn(`An alert rule was not saved: ${String(error)}`);
    });
  }
  const { saveBriefing } = await graphql(
    api,
    `
      mutation ($input: BriefingInput!) {
        saveBriefing(input: $input) {
          id
        }
      }
    `,
    { input: { name: "Morning", placeIds: busy.placeIds.slice(0, 2), period: "TODAY", time: "07:00", days: ["MON"] } },
    busy.token,
  );
  await graphql(
    api,
    `
      mutation ($id: ID!) {
        sendBriefingNow(id: $id) {
          id
        }
      }
    `,
    { id: saveBriefing.id },
    busy.token,
  );
  return busy;
}

type Screen = {
  name: string;
  path: string;
  token: string | null;
  /** What shows the screen is there (and, where given, the part to picture). */
  ready: (page: Page) => Locator;
  /** What else must be on the page first: the parts loaded after hydration (the dashboard's, the inbox). */
  settled?: (page: Page) => Locator[];
  part?: boolean;
};

async function shoot(browser: Browser, baseURL: string, screen: Screen, width: number, mode: (typeof MODES)[number]) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, deviceScaleFactor: 1, colorScheme: mode });
  try {
    await context.clock.install({ time: Date.now() });
    if (screen.token)
      await context.addCookies([{ name: SESSION_COOKIE, value: screen.token, url: baseURL, httpOnly: true, sameSite: "Lax" }]);
    const page = await context.newPage();
    await page.goto(`${baseURL}${screen.path}`);
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    const ready = screen.ready(page);
    await expect(ready).toBeVisible();
    for (const part of screen.settled?.(page) ?? []) await expect(part).toBeVisible();
    // Fonts and the parts hydrated when idle settle before the picture.
    await page.evaluate(() => document.fonts.ready.then(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 2000 }))));
    const file = path.join(OUT_DIR, `${screen.name}-${width}-${mode}.png`);
    if (screen.part) {
      // From the top of the whole page, so the sticky header stays where it belongs, not over the part.
      await page.evaluate(() => window.scrollTo(0, 0));
      const box = await ready.boundingBox();
      if (!box) throw new Error(`${screen.name}: the part has no box`);
      await page.screenshot({ path: file, fullPage: true, clip: box, animations: "disabled" });
    } else {
      await page.screenshot({ path: file, fullPage: true, animations: "disabled" });
    }
    const { violations } = await new AxeBuilder({ page }).analyze();
    return violations.map(
      (violation) =>
        `${screen.name} ${width} px ${mode}: ${violation.id} (${violation.impact}) ${violation.nodes
          .map((node) => node.target.join(" "))
          .slice(0, 3)
          .join(" | ")}`,
    );
  } finally {
    await context.close();
  }
}

const weather = await startFakeOpenMeteo();
const server = await startAppServer({ TEST_HOOKS: "0", OPEN_METEO_FORECAST_URL: weather.url, OPEN_METEO_GEOCODING_URL: weather.url });
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, env: CHROMIUM_ENV });
const problems: string[] = [];
try {
  const api = `${server.baseURL}/graphql`;
  const empty = await account(api, "screens-empty@example.com");
  const busy = await busyAccount(api);
  const main = (page: Page) => page.getByRole("main");
  const dashboard = (page: Page) => [
    page.getByTestId("open-place").getByTestId("forecast-card"),
    page.getByTestId("place-switcher"),
    page.getByRole("region", { name: /^Inbox/ }),
  ];
  const screens: Screen[] = [
    { name: "home-visitor", path: "/", token: null, ready: main },
    {
      name: "home-empty",
      path: "/",
      token: empty.token,
      ready: main,
      settled: (page) => [page.getByRole("combobox", { name: "Search for a place" })],
    },
    { name: "home-five-places", path: "/", token: busy.token, ready: main, settled: dashboard },
    // A place's full view: the switcher's address for one place (not the first, which "home-five-places" shows).
    { name: "place", path: `/?place=${busy.placeIds[2]}`, token: busy.token, ready: main, settled: dashboard },
    {
      name: "rules",
      path: "/settings?section=alerts",
      token: busy.token,
      ready: (page) => page.getByRole("region", { name: "Alert rules" }),
      part: true,
    },
    {
      name: "inbox",
      path: "/",
      token: busy.token,
      ready: (page) => page.getByRole("region", { name: /^Inbox/ }),
      part: true,
    },
  ];
  mkdirSync(OUT_DIR, { recursive: true });
  for (const screen of screens) {
    for (const mode of MODES) {
      for (const width of WIDTHS) {
        problems.push(...(await shoot(browser, server.baseURL, screen, width, mode)));
        console.log(`  ${screen.name}-${width}-${mode}.png`);
      }
    }
  }
} finally {
  await browser.close();
  await server.stop();
  await weather.close();
}
if (problems.length > 0) {
  console.error(`axe found ${problems.length} violation(s):\n${problems.join("\n")}`);
  process.exit(1);
}
console.log(`Saved ${WIDTHS.length * MODES.length * 6} screenshots in docs/screens/; axe found no violation.`);
