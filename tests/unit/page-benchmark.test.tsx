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

/** The open place's card as the app renders it (its structure; the classes that matter to no reader left out). */
function realCard(place: string, { hours = EXPECTED.hours, days = EXPECTED.days } = {}) {
  const hour = (i: number) =>
    `<li class="forecast-hour"><span class="text-muted">${i} AM</span>${icon("sun")}<span class="sr-only">Clear</span>` +
    `<span class="font-medium">${50 + i}°</span><span class="forecast-rain"><span class="sr-only">Chance of rain </span>${i}%</span></li>`;
  const day = (i: number) =>
    `<li><a href="/?place=1&amp;day=2026-11-2${i}" class="forecast-day day-row"><span class="font-medium">${i === 0 ? "Today" : `Day ${i}`}</span>${icon("rain")}` +
    `<span class="forecast-rain" title="Chance of rain 90%"><span class="sr-only">Rain<!-- -->, </span>90%</span>` +
    `<span class="text-muted">3${i}°</span><span aria-hidden="true"><span class="bar" style="left:${i}%;right:1.25%"></span></span>` +
    `<span>6${i}°</span></a></li>`;
  return (
    `<article class="card" aria-label="${place}" data-testid="forecast-card">` +
    `<header><div><h3>${place}</h3><p class="text-sm">Bern, Switzerland</p></div></header>` +
    `<div class="weather-now tone-sun">${icon("sun-cloud").replace('"20"', '"64"')}<div><p data-testid="current-temperature">12 °C</p>` +
    `<p data-testid="headline">Mainly clear</p><p>Feels like 10 °C · Low 3°, high 14°</p></div></div>` +
    `<dl><div><dt>Wind</dt><dd>6 km/h<span>, <!-- -->gusts 25 km/h</span></dd></div></dl>` +
    `<section aria-label="Next 24 hours in ${place}" class="hourly"><div><h4>Next 24 hours</h4><fieldset><legend>Show in the chart</legend>` +
    `<label><input type="radio" value="temperature" checked=""/>Temperature</label><label><input type="radio" value="rain"/>Rain</label></fieldset></div>` +
    `<p class="hourly-legend" data-view="temperature">Temperature (°C)</p><div tabindex="0" role="group">` +
    `<svg viewBox="0 0 1152 64" role="img" aria-label="Temperature"><polyline points="24,13.3 72,9.8" class="x"></polyline>` +
    `<g font-size="11"><text x="24" y="7">12°</text></g></svg>` +
    `<svg viewBox="0 0 1152 64" role="img" aria-label="Rain"><rect x="10" y="40" width="28" height="22"></rect></svg>` +
    `<div><div data-testid="wind-hour"><span>12</span><span>G 30</span></div></div>` +
    `<ol>${Array.from({ length: hours }, (_, i) => hour(i)).join("")}</ol></div></section>` +
    `<section aria-label="7 days in ${place}"><h4>7 days</h4><ol>${Array.from({ length: days }, (_, i) => day(i)).join("")}</ol></section>` +
    `<footer><span data-testid="updated">Updated 2 minutes ago</span><a href="https://open-meteo.com/">Weather data by Open-Meteo</a></footer>` +
    `</article>`
  );
}

/** A switcher row. */
const realRow = (place: string, i: number) =>
  `<li><a href="/?place=${i}" data-place-row="${i}"><span><span data-testid="place-label">${place}</span><span>Bern</span></span>` +
  `${icon("sun")}<span class="sr-only">Clear</span><span><span>12°</span><span aria-hidden="true">14° / 3°</span></span></a></li>`;

const page = (main: string) =>
  `<!DOCTYPE html><html lang="en-US"><head><title>Weather · Weatherbot</title><style>.card{}</style><script>var x = "<p>not shown</p>";</script></head>` +
  `<body><header><a href="#main">Skip to content</a><a href="/">${icon("logo")}<span>Weatherbot</span></a>` +
  `<nav><a href="/">Home</a><a href="/settings">Settings</a></nav><button aria-label="About">${icon("info")}</button></header>` +
  `<main id="main"><section><h1>Weather</h1><p>Save the places you care about.</p>${main}</section></main>` +
  `<script>window.__data = {"cards": 10};</script></body></html>`;

const signedInPage = (card: string, rows: string[]) =>
  page(
    `<div><section aria-labelledby="places-heading"><div><h2 id="places-heading">Your places</h2><button>Add a place</button></div>` +
      `<div data-testid="open-place">${card}</div></section><nav><h2>All places</h2><ol data-testid="places">${rows.join("")}</ol></nav>` +
      `<div><h2>Inbox</h2></div></div>`,
  );

const tenRows = Array.from({ length: EXPECTED.places }, (_, i) => realRow(`Place ${i + 1}`, i + 1));
const tenPlaces = signedInPage(realCard("Place 1"), tenRows);

const visitorPage = page(
  `<p>Create an account to save places. <a href="/settings">Sign up or log in</a></p>` +
    `<section><h2>Weather anywhere</h2><div><label for="q">Search for a place</label><input id="q" type="search" placeholder="City or town" value=""/>` +
    `<ul role="listbox" hidden=""><li>Nothing</li></ul></div></section>`,
);

describe("the page benchmark's fixture, read from the real page", () => {
  it("takes the open card's visible texts, icons, charts, wind and range bars, and each switcher row", () => {
    const fixture = extractSignedIn(tenPlaces);
    expect(fixture).toMatchObject({
      title: "Weather · Weatherbot",
      header: ["Skip to content", "Weatherbot", "Home", "Settings"],
      heading: "Weather",
      intro: "Save the places you care about.",
      placesHeading: "Your places",
    });
    expect(fixture.rows).toHaveLength(10);
    expect(fixture.rows[1]).toEqual({ href: "/?place=2", texts: ["Place 2", "Bern", "Clear", "12°", "14° / 3°"], icon: `${ICONS}#sun` });
    const { card } = fixture;
    expect(card).toMatchObject({
      title: "Place 1",
      subtitle: "Bern, Switzerland",
      icon: `${ICONS}#sun-cloud`,
      current: ["12 °C", "Mainly clear", "Feels like 10 °C · Low 3°, high 14°", "Wind", "6 km/h", ",", "gusts 25 km/h"],
      hoursTexts: ["Next 24 hours", "Show in the chart", "Temperature", "Rain", "Temperature (°C)"],
      charts: [
        {
          viewBox: "0 0 1152 64",
          shapes: [
            { tag: "polyline", attributes: { points: "24,13.3 72,9.8", class: "x" }, text: "" },
            { tag: "text", attributes: { x: "24", y: "7" }, text: "12°" },
          ],
        },
        { viewBox: "0 0 1152 64", shapes: [{ tag: "rect", attributes: { x: "10", y: "40", width: "28", height: "22" }, text: "" }] },
      ],
      wind: [{ texts: ["12", "G 30"], icon: null, range: null }],
      daysHeading: "7 days",
      footer: ["Updated 2 minutes ago", "Weather data by Open-Meteo"],
    });
    expect(card.hours).toHaveLength(24);
    expect(card.hours[3]).toEqual({ texts: ["3 AM", "Clear", "53°", "Chance of rain", "3%"], icon: `${ICONS}#sun`, range: null });
    expect(card.days).toHaveLength(7);
    expect(card.days[0]).toEqual({
      texts: ["Today", "Rain", ",", "90%", "30°", "60°"],
      icon: `${ICONS}#rain`,
      range: { left: "0%", right: "1.25%" },
    });
  });

  it("refuses a page that is not the one measured: other than ten places, one open with 24 hours and 7 days", () => {
    expect(() => extractSignedIn(signedInPage(realCard("Place 1"), tenRows.slice(1)))).toThrow("shows 9 places, not 10");
    expect(() => extractSignedIn(signedInPage(realCard("A") + realCard("B"), tenRows))).toThrow("shows 2 whole places, not 1");
    expect(() => extractSignedIn(signedInPage(realCard("Short", { hours: 12 }), tenRows))).toThrow(
      'The card "Short" shows 12 hours, not 24',
    );
    expect(() => extractSignedIn(signedInPage(realCard("Week", { days: 5 }), tenRows))).toThrow('The card "Week" shows 5 days, not 7');
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
    const signedIn = extractSignedIn(tenPlaces);
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
