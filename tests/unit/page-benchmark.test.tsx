import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider, type RouteObject } from "react-router";
import { describe, expect, it } from "vitest";
import BarePlaces from "../../scripts/bench/bare-page/app/routes/places";
import BareVisitor from "../../scripts/bench/bare-page/app/routes/visitor";
import type { LoadResult } from "../../scripts/bench/load";
import { EXPECTED, extractSignedIn, extractVisitor, type SignedInFixture, type VisitorFixture } from "../../scripts/bench/page-fixture";
import { notFullPage, schedule, shareOfBare, summarise } from "../../scripts/bench/page-rounds";
import { cpuSeconds } from "../../scripts/bench/process-cpu";

const ICONS = "/assets/condition-icons-x.svg";
const icon = (name: string) => `<svg width="20" height="20" aria-hidden="true"><use href="${ICONS}#${name}"></use></svg>`;

/** A card as the app renders it (its structure; the classes that matter to no reader left out). */
function realCard(place: string, { hours = EXPECTED.hours, days = EXPECTED.days } = {}) {
  const hour = (i: number) =>
    `<li class="forecast-hour"><span class="text-muted">${i} AM</span>${icon("sun")}<span class="sr-only">Clear</span>` +
    `<span class="font-medium">${50 + i}°</span><span class="forecast-rain"><span class="sr-only">Chance of rain </span>${i}%</span></li>`;
  const day = (i: number) =>
    `<li class="forecast-day"><span class="font-medium">${i === 0 ? "Today" : `Day ${i}`}</span>${icon("rain")}` +
    `<span class="forecast-rain" title="Chance of rain 90%"><span class="sr-only">Rain<!-- -->, </span>90%</span>` +
    `<span class="text-muted">3${i}°</span><span aria-hidden="true"><span class="bar" style="left:${i}%;right:1.25%"></span></span>` +
    `<span>6${i}°</span></li>`;
  return (
    `<li><article class="card" aria-label="${place}" data-testid="forecast-card">` +
    `<header><div><h3>${place}</h3><p class="text-sm">Bern, Switzerland</p></div></header>` +
    `<div class="flex"><div>${icon("sun-cloud").replace('"20"', '"56"')}<div><p data-testid="current-temperature">12 °C</p><p>Mainly clear</p></div></div>` +
    `<dl><div><dt>Feels like</dt><dd>10 °C</dd></div><div><dt>Wind</dt><dd>6 km/h<span>, <!-- -->gusts 25 km/h</span></dd></div></dl></div>` +
    `<section aria-label="Next 24 hours in ${place}"><h4>Next 24 hours</h4><div><svg viewBox="0 0 240 32" role="img" aria-label="Chart">` +
    `<path d="M2 31h6v1h-6z"></path><polyline points="5,13.3 15,9.8"></polyline></svg>` +
    `<ol>${Array.from({ length: hours }, (_, i) => hour(i)).join("")}</ol></div></section>` +
    `<section aria-label="7 days in ${place}"><h4>7 days</h4><ol>${Array.from({ length: days }, (_, i) => day(i)).join("")}</ol></section>` +
    `<footer><span data-testid="updated">Updated 2 minutes ago</span><a href="https://open-meteo.com/">Weather data by Open-Meteo</a></footer>` +
    `</article></li>`
  );
}

/** A compact card (one of many places): now and today, and the button that opens it. */
function compactCard(place: string) {
  return (
    `<li><article class="card" aria-label="${place}" data-testid="forecast-card">` +
    `<header><div><h3>${place}</h3><p class="text-sm">Bern, Switzerland</p></div>` +
    `<button type="button" aria-expanded="false" aria-label="Show forecast for ${place}">Show forecast</button></header>` +
    `<div><div>${icon("sun")}<p data-testid="current-temperature">12 °C</p><div><p>Clear</p><p>Low 3°, high 9° · Chance of rain 10%</p></div></div></div>` +
    `<footer><span data-testid="updated">Updated 2 minutes ago</span></footer></article></li>`
  );
}

const page = (main: string) =>
  `<!DOCTYPE html><html lang="en-US"><head><title>Weather · Weatherbot</title><style>.card{}</style><script>var x = "<p>not shown</p>";</script></head>` +
  `<body><header><a href="#main">Skip to content</a><a href="/">${icon("logo")}<span>Weatherbot</span></a>` +
  `<nav><a href="/">Home</a><a href="/settings">Settings</a></nav><button aria-label="About">${icon("info")}</button></header>` +
  `<main id="main"><section><h1>Weather</h1><p>Save the places you care about.</p>${main}</section></main>` +
  `<script>window.__data = {"cards": 10};</script></body></html>`;

const signedInPage = (cards: string[]) =>
  page(
    `<div><section aria-labelledby="places-heading"><div><h2 id="places-heading">Your places</h2><button>Add a place</button></div>` +
      `<ul data-testid="places">${cards.join("")}</ul></section><div><h2>Inbox</h2></div></div>`,
  );

const tenCards = Array.from({ length: EXPECTED.cards }, (_, i) => realCard(`Place ${i + 1}`));

const visitorPage = page(
  `<p>Create an account to save places. <a href="/settings">Sign up or log in</a></p>` +
    `<section><h2>Weather anywhere</h2><div><label for="q">Search for a place</label><input id="q" type="search" placeholder="City or town" value=""/>` +
    `<ul role="listbox" hidden=""><li>Nothing</li></ul></div></section>`,
);

describe("the page benchmark's fixture, read from the real page", () => {
  it("reads a compact card as now and today with the button that opens it, and refuses one that shows hours", () => {
    const cards = [tenCards[0]!, ...Array.from({ length: EXPECTED.cards - 1 }, (_, i) => compactCard(`Place ${i + 2}`))];
    const fixture = extractSignedIn(signedInPage(cards));
    expect(fixture.cards[0]!).toMatchObject({ toggle: null, hours: expect.any(Array) });
    expect(fixture.cards[0]!.hours).toHaveLength(EXPECTED.hours);
    expect(fixture.cards[1]!).toMatchObject({
      toggle: "Show forecast",
      current: ["12 °C", "Clear", "Low 3°, high 9° · Chance of rain 10%"],
      hours: [],
      days: [],
      chart: null,
    });
    const withHours = compactCard("Odd").replace("</header>", `</header><section><h4>Next 24 hours</h4><ol><li>1</li></ol></section>`);
    expect(() => extractSignedIn(signedInPage([...cards.slice(0, 9), withHours]))).toThrow(/compact card "Odd" shows hours/);
  });

  it("takes each card's visible texts, icons, chart and range bars", () => {
    const fixture = extractSignedIn(signedInPage(tenCards));
    expect(fixture).toMatchObject({
      title: "Weather · Weatherbot",
      header: ["Skip to content", "Weatherbot", "Home", "Settings"],
      heading: "Weather",
      intro: "Save the places you care about.",
      placesHeading: "Your places",
    });
    expect(fixture.cards.map((card) => card.title)).toEqual(Array.from({ length: 10 }, (_, i) => `Place ${i + 1}`));
    const [card] = fixture.cards;
    expect(card).toMatchObject({
      subtitle: "Bern, Switzerland",
      icon: `${ICONS}#sun-cloud`,
      current: ["12 °C", "Mainly clear", "Feels like", "10 °C", "Wind", "6 km/h", ",", "gusts 25 km/h"],
      hoursHeading: "Next 24 hours",
      chart: { viewBox: "0 0 240 32", bars: "M2 31h6v1h-6z", line: "5,13.3 15,9.8" },
      daysHeading: "7 days",
      footer: ["Updated 2 minutes ago", "Weather data by Open-Meteo"],
    });
    expect(card!.hours).toHaveLength(24);
    expect(card!.hours[3]).toEqual({ texts: ["3 AM", "Clear", "53°", "Chance of rain", "3%"], icon: `${ICONS}#sun`, range: null });
    expect(card!.days).toHaveLength(7);
    expect(card!.days[0]).toEqual({
      texts: ["Today", "Rain", ",", "90%", "30°", "60°"],
      icon: `${ICONS}#rain`,
      range: { left: "0%", right: "1.25%" },
    });
  });

  it("refuses a page that is not the one measured: other than ten places, 24 hours, 7 days", () => {
    expect(() => extractSignedIn(signedInPage(tenCards.slice(1)))).toThrow("shows 9 places, not 10");
    expect(() => extractSignedIn(signedInPage([...tenCards.slice(1), realCard("Short", { hours: 12 })]))).toThrow(
      'The card "Short" shows 12 hours, not 24',
    );
    expect(() => extractSignedIn(signedInPage([...tenCards.slice(1), realCard("Week", { days: 5 })]))).toThrow(
      'The card "Week" shows 5 days, not 7',
    );
    expect(() => extractSignedIn(visitorPage)).toThrow("shows 0 places");
  });

  it("reads the visitor page's main content as blocks in order, leaving out what is hidden", () => {
    expect(extractVisitor(visitorPage)).toEqual({
      title: "Weather · Weatherbot",
      header: ["Skip to content", "Weatherbot", "Home", "Settings"],
      blocks: [
        { tag: "h1", text: "Weather" },
        { tag: "p", text: "Save the places you care about." },
        { tag: "p", text: "Create an account to save places. Sign up or log in" },
        { tag: "h2", text: "Weather anywhere" },
        { tag: "label", text: "Search for a place" },
        { tag: "input", text: "City or town" },
      ],
    });
  });
});

/** A bare page's route rendered on the server with its loader's data, as its document. */
async function renderBare(Component: () => React.JSX.Element, data: SignedInFixture | VisitorFixture) {
  const routes: RouteObject[] = [{ path: "/", loader: () => data, Component }];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request("http://bench.test/"));
  if (context instanceof Response) throw new Error("The loader answered a Response");
  const body = renderToString(
    <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />,
  );
  return `<!DOCTYPE html><html><head><title>${data.title}</title></head><body>${body}</body></html>`;
}

describe("the bare baseline pages", () => {
  it("show what the real pages show: read back, they give the same fixture", async () => {
    const signedIn = extractSignedIn(signedInPage(tenCards));
    expect(extractSignedIn(await renderBare(BarePlaces, signedIn))).toEqual(signedIn);
    const visitor = extractVisitor(visitorPage);
    expect(extractVisitor(await renderBare(BareVisitor, visitor))).toEqual(visitor);
  });
});

describe("the page benchmark's rounds", () => {
  it("loads every page on both servers each round, the first server alternating", () => {
    const turns = schedule(3, ["signed-in", "visitor"]);
    expect(turns.map(({ round, page, server }) => `${round} ${page} ${server}`)).toEqual([
      "0 signed-in app",
      "0 signed-in bare",
      "0 visitor bare",
      "0 visitor app",
      "1 signed-in bare",
      "1 signed-in app",
      "1 visitor app",
      "1 visitor bare",
      "2 signed-in app",
      "2 signed-in bare",
      "2 visitor bare",
      "2 visitor app",
    ]);
    expect(schedule(2, ["visitor"]).map(({ server }) => server)).toEqual(["app", "bare", "bare", "app"]);
  });

  const result = (rps: number, p99 = 10): LoadResult => ({ requests: rps * 4, errors: 0, rps, p50: p99 / 2, p99 });

  it("gives each server the medians of its rounds, and the share as the median of the rounds' shares", () => {
    const app = [result(20, 300), result(40, 200), result(30, 250)];
    const bare = [result(100), result(100), result(50)];
    expect(summarise(app)).toMatchObject({ rps: 30, p99: 250, p50: 125, requests: 360, errors: 0 });
    // Rounds' shares 20 %, 40 %, 60 %: the median of them, not 30 / 100.
    expect(shareOfBare(app, bare)).toEqual({ median: 0.4, perRound: [0.2, 0.4, 0.6] });
    expect(() => shareOfBare(app, bare.slice(1))).toThrow("as many rounds");
  });

  it("counts an answer as a page only when it is a 200 that ends its HTML and holds its markers", () => {
    const isError = notFullPage([
      { text: 'data-testid="forecast-card"', times: 2 },
      { text: "<h1", times: 1 },
    ]);
    const card = '<article data-testid="forecast-card"></article>';
    const answer = (status: number, body: string) => isError({ status, body: Buffer.from(body) });
    expect(answer(200, `<html><body><h1>W</h1>${card}${card}</body></html>\n`)).toBe(false);
    expect(answer(302, "")).toBe(true);
    expect(answer(500, `<html><body><h1>W</h1>${card}${card}</body></html>`)).toBe(true);
    expect(answer(200, `<html><body><h1>W</h1>${card}${card}`)).toBe(true);
    expect(answer(200, `<html><body><h1>W</h1>${card}</body></html>`)).toBe(true);
    expect(answer(200, `<html><body><h1>W</h1>${card}${card}${card}</body></html>`)).toBe(true);
    expect(answer(200, `<html><body>${card}${card}</body></html><script>late</script>`)).toBe(true);
  });
});

describe("a server's CPU time", () => {
  it("reads what a process has used so far, in seconds", () => {
    const before = cpuSeconds(process.pid);
    const until = performance.now() + 200;
    while (performance.now() < until);
    const spent = cpuSeconds(process.pid) - before;
    // Some of the 200 ms may go to other processes on a busy machine; at least the tick's resolution shows.
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThan(1);
  });
});
