import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, gotoHydrated, test } from "./fixtures";
import { ROOT } from "./support/app-server";
import { FIRST_LOAD_BUDGET_KB, firstLoadJs, referencedScripts } from "./support/first-load";
import { accountWithPlace, signInBrowser } from "./support/graphql";

/**
 * Modules the first paint does not need, each a chunk of its own: the cache's updaters, analytics, the
 * documents of overlays and settings, the error page's view, the bot's texts (for formatting messages), and
 * the air-quality line's code and texts and the nowcast's chart (the server renders them; a signed-in page names
 * the air line's chunks so they hydrate with it, decision 018), the official warnings' texts (named likewise) and
 * their details (loaded when a badge is pressed), the forecast a visitor looks up (shown only after a search), and
 * the documents only a signed-in page sends (a signed-in page names them with the dashboard).
 */
const LATER = {
  cacheUpdates: /\/assets\/cache-updates-[\w-]{8}\.js$/,
  analytics: /\/assets\/analytics-[\w-]{8}\.js$/,
  laterDocuments: /\/assets\/later-documents(\.generated)?-[\w-]{8}\.js$/,
  errorView: /\/assets\/error-view-[\w-]{8}\.js$/,
  botTexts: /\/assets\/locale-en-US-bot-[\w-]{8}\.js$/,
  airQualityLine: /\/assets\/air-quality-line-[\w-]{8}\.js$/,
  airTexts: /\/assets\/locale-en-US-air-[\w-]{8}\.js$/,
  nowcastChart: /\/assets\/nowcast-chart-[\w-]{8}\.js$/,
  warningTexts: /\/assets\/locale-en-US-warnings-[\w-]{8}\.js$/,
  warningDetails: /\/assets\/warning-details-[\w-]{8}\.js$/,
  visitorForecast: /\/assets\/visitor-forecast-[\w-]{8}\.js$/,
  signedInDocuments: /\/assets\/signed-in-documents\.generated-[\w-]{8}\.js$/,
};
const later = (scripts: string[]) => scripts.filter((src) => Object.values(LATER).some((pattern) => pattern.test(src)));

test("/ leaves the cache's updaters, analytics, later documents, the error view and a visitor's forecast card out of its first load (within its budget): the updaters load once the page is idle, analytics never without a key", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  // Each is a chunk of its own, else not finding it below would prove nothing.
  const assets = readdirSync(path.join(ROOT, "build/client/assets")).map((file) => `/assets/${file}`);
  expect(later(assets)).toHaveLength(Object.keys(LATER).length);

  const visitorHtml = await (await request.get(`${baseURL}/`)).text();
  expect(referencedScripts(visitorHtml).length).toBeGreaterThan(5);
  expect(later(referencedScripts(visitorHtml))).toEqual([]);
  // Nor the forecast card's code (a chunk the dashboard shares): a visitor's page shows none until a search.
  const forecastCard = /\/assets\/forecast-card-[\w-]{8}\.js$/;
  expect(assets.filter((src) => forecastCard.test(src))).toHaveLength(1);
  expect(referencedScripts(visitorHtml).filter((src) => forecastCard.test(src))).toEqual([]);
  expect(firstLoadJs(visitorHtml).totalKb).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_KB);

  const { token } = await accountWithPlace(request, baseURL!, "Berlin");
  const signedInHtml = await (await request.get(`${baseURL}/`, { headers: { cookie: `weatherbot_session=${token}` } })).text();
  expect(signedInHtml).toContain("Berlin");
  // A signed-in page names what its server render took from lazy modules (the cards' air line and its texts, the
  // warnings' texts, the later documents: the cards' official warnings are a query of theirs, and the signed-in documents),
  // nothing else of these.
  const rendered = [LATER.airQualityLine, LATER.airTexts, LATER.warningTexts, LATER.laterDocuments, LATER.signedInDocuments];
  const signedInLater = later(referencedScripts(signedInHtml));
  expect(signedInLater.filter((src) => !rendered.some((pattern) => pattern.test(src)))).toEqual([]);
  expect(signedInLater).toHaveLength(rendered.length);

  const requested: string[] = [];
  page.on("request", (sent) => requested.push(new URL(sent.url()).pathname));
  await signInBrowser(context, baseURL!, token);
  await gotoHydrated(page, `${baseURL}/`);
  await expect.poll(() => requested.some((pathname) => LATER.cacheUpdates.test(pathname))).toBe(true);
  expect(requested.filter((pathname) => LATER.analytics.test(pathname))).toEqual([]);
});

test("a signed-in page names the dashboard's chunks for the browser to fetch beside the entry; a visitor's page leaves them out", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  const dashboard = /^\/assets\/dashboard-[\w-]{8}\.js$/;
  const assets = readdirSync(path.join(ROOT, "build/client/assets")).map((file) => `/assets/${file}`);
  expect(assets.filter((src) => dashboard.test(src))).toHaveLength(1);

  const visitorHtml = await (await request.get(`${baseURL}/`)).text();
  expect(referencedScripts(visitorHtml).filter((src) => dashboard.test(src))).toEqual([]);

  const { token } = await accountWithPlace(request, baseURL!, "Berlin");
  const signedIn = await request.get(`${baseURL}/`, { headers: { cookie: `weatherbot_session=${token}` } });
  const html = await signedIn.text();
  const nonce = /'nonce-([^']+)'/.exec(signedIn.headers()["content-security-policy"] ?? "")![1]!;
  const preload = [...html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*>/g)]
    .map((match) => match[0])
    .find((tag) => /\/assets\/dashboard-/.test(tag));
  // Each chunk named once: the dashboard's links leave out what the entry and the route name already.
  const preloads = [...html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)].map((match) => match[1]);
  expect(preloads.length).toBeGreaterThan(5);
  expect(new Set(preloads).size).toBe(preloads.length);
  // In the head, with the page's nonce (the CSP allows no script without it).
  expect(preload).toContain(`nonce="${nonce}"`);
  expect(html.indexOf(preload!)).toBeLessThan(html.indexOf("</head>"));

  // The build's manifest, from which the server names them, is not served.
  expect((await request.get(`${baseURL}/.vite/manifest.json`)).status()).toBe(404);

  // The browser fetches it once, from the page's own link, and the dashboard works.
  const requested: string[] = [];
  page.on("request", (sent) => requested.push(new URL(sent.url()).pathname));
  await signInBrowser(context, baseURL!, token);
  await gotoHydrated(page, `${baseURL}/`);
  await expect(page.getByRole("article", { name: "Berlin" })).toBeVisible();
  expect(requested.filter((pathname) => dashboard.test(pathname))).toHaveLength(1);
});

test("the browser's locale chunks carry the app's texts; the bot's are in chunks of their own, which only the inbox loads", () => {
  const assets = path.join(ROOT, "build/client/assets");
  const bot = JSON.parse(readFileSync(path.join(ROOT, "locales/en-US/bot.json"), "utf8")) as { briefing: { unavailable: string } };
  const common = readFileSync(path.join(ROOT, "locales/en-US/common.json"), "utf8");
  // A text of the bot's own: were it in the app's texts too, this would prove nothing.
  expect(common).not.toContain(bot.briefing.unavailable);
  const scripts = readdirSync(assets).filter((file) => file.endsWith(".js"));
  // The app's texts: not the bot's, nor the air-quality line's (chunks of their own).
  const english = scripts.find((file) => file.startsWith("locale-en-US-") && !/^locale-en-US-(bot|air)-/.test(file));
  expect(english && readFileSync(path.join(assets, english), "utf8")).toContain("Weatherbot");
  const withBotTexts = scripts.filter((file) => readFileSync(path.join(assets, file), "utf8").includes(bot.briefing.unavailable));
  expect(withBotTexts.map((file) => file.replace(/-[\w-]{8}\.js$/, ""))).toEqual(["locale-en-US-bot"]);
});
