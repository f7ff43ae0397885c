/**
 * What the real `/` shows, read from its server-rendered HTML: the bare baseline page
 * (scripts/bench/bare-page) renders the same visible content from it, so the page benchmark
 * compares the app with a page that shows the same thing and does nothing else.
 *
 * Read from the rendered page rather than fetched from the API and formatted again: the
 * texts are then exactly the ones a person sees (units, locale, the place's time zone, the
 * hours from now, "Today"), with no second copy of the app's formatting to drift from it.
 * Only the page's structure is assumed (a card per place with a header, the current
 * conditions, a section of hours and one of days, a footer), and every count is checked.
 */
import { Window } from "happy-dom";

/** One hour or day of a card: its texts in order, its icon (a sprite reference), its range bar. */
export type CellFixture = { texts: string[]; icon: string | null; range: { left: string; right: string } | null };

export type CardFixture = {
  title: string;
  subtitle: string;
  /** A compact card's button that opens it (its hours and days are then not on the page). */
  toggle: string | null;
  icon: string | null;
  /** The current conditions' texts, in order (temperature, condition, each figure's label and value). */
  current: string[];
  hoursHeading: string;
  chart: { viewBox: string; bars: string; line: string } | null;
  hours: CellFixture[];
  daysHeading: string;
  days: CellFixture[];
  footer: string[];
};

export type SignedInFixture = {
  title: string;
  header: string[];
  heading: string;
  intro: string;
  placesHeading: string;
  cards: CardFixture[];
};

/** A block of the visitor page's main content, in order. */
export type BlockFixture = { tag: "h1" | "h2" | "h3" | "p" | "label" | "button" | "input"; text: string };

export type VisitorFixture = { title: string; header: string[]; blocks: BlockFixture[] };

export type PagesFixture = { signedIn: SignedInFixture; visitor: VisitorFixture };

export const EXPECTED = { cards: 10, hours: 24, days: 7 };

type Doc = Window["document"];
type El = ReturnType<Doc["querySelector"]> & object;

/** Reads the page with happy-dom (no script runs, nothing loads), and closes it: an open window keeps working in the process that measures. */
function read<T>(html: string, extract: (document: Doc) => T): T {
  const window = new Window({
    settings: {
      disableJavaScriptEvaluation: true,
      disableJavaScriptFileLoading: true,
      disableCSSFileLoading: true,
      disableComputedStyleRendering: true,
    },
  });
  try {
    window.document.write(html);
    return extract(window.document);
  } finally {
    void window.happyDOM.close();
  }
}

const SKIPPED = new Set(["SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT", "SVG"]);

/** The texts of an element's text nodes in document order, whitespace collapsed, empty ones left out. */
export function textRuns(element: El, skip: (element: El) => boolean = () => false): string[] {
  const runs: string[] = [];
  const walk = (node: El) => {
    for (const child of node.childNodes) {
      if (child.nodeType === 3) {
        const text = (child.textContent ?? "").replace(/\s+/g, " ").trim();
        if (text) runs.push(text);
      } else if (child.nodeType === 1) {
        const element = child as unknown as El;
        if (!SKIPPED.has(element.tagName.toUpperCase()) && !skip(element)) walk(element);
      }
    }
  };
  walk(element);
  return runs;
}

const text = (element: El | null) => (element ? textRuns(element).join(" ") : "");

function required(parent: El | Doc, selector: string, what: string): El {
  const element = parent.querySelector(selector);
  if (!element) throw new Error(`The page has no ${what} (${selector})`);
  return element as El;
}

const iconOf = (element: El) => element.querySelector("use")?.getAttribute("href") ?? null;

function cell(element: El): CellFixture {
  const styled = element.querySelector("[style*='left:']");
  const style = styled?.getAttribute("style") ?? "";
  const left = /left:\s*([^;]+)/.exec(style)?.[1];
  const right = /right:\s*([^;]+)/.exec(style)?.[1];
  return { texts: textRuns(element), icon: iconOf(element), range: left && right ? { left, right } : null };
}

/** A whole card shows 24 hours and 7 days; a compact one (one of many places) neither, and a button that opens it. */
function card(article: El): CardFixture {
  const header = required(article, "header", "card header");
  const title = text(required(header, "h3", "card title"));
  const toggle = header.querySelector("button[aria-expanded='false']");
  const [hoursSection, daysSection] = [...article.querySelectorAll("section")] as El[];
  if (!toggle && (!hoursSection || !daysSection)) throw new Error(`The card "${title}" has no hours and days sections`);
  if (toggle && (hoursSection || daysSection)) throw new Error(`The compact card "${title}" shows hours or days`);
  const footer = required(article, "footer", "card footer");
  const inParts = (element: El) => element === header || element.tagName === "SECTION" || element === footer;
  const chart = hoursSection?.querySelector("svg[role='img']") ?? null;
  const hours = hoursSection ? ([...hoursSection.querySelectorAll("li")] as El[]).map(cell) : [];
  const days = daysSection ? ([...daysSection.querySelectorAll("li")] as El[]).map(cell) : [];
  const expected = toggle ? { hours: 0, days: 0 } : EXPECTED;
  if (hours.length !== expected.hours) throw new Error(`The card "${title}" shows ${hours.length} hours, not ${expected.hours}`);
  if (days.length !== expected.days) throw new Error(`The card "${title}" shows ${days.length} days, not ${expected.days}`);
  const current = textRuns(article, inParts);
  if (current.length === 0) throw new Error(`The card "${title}" shows no current conditions`);
  return {
    title,
    subtitle: text(header.querySelector("p")),
    toggle: toggle ? text(toggle) : null,
    icon: iconOf(article.querySelector(":scope > div") ?? article),
    current,
    hoursHeading: text(hoursSection?.querySelector("h4") ?? null),
    chart: chart
      ? {
          viewBox: chart.getAttribute("viewBox") ?? "",
          bars: chart.querySelector("path")?.getAttribute("d") ?? "",
          line: chart.querySelector("polyline")?.getAttribute("points") ?? "",
        }
      : null,
    hours,
    daysHeading: text(daysSection?.querySelector("h4") ?? null),
    days,
    footer: textRuns(footer),
  };
}

/** The signed-in `/` with its places: the cards' visible figures, and the page's heading around them. */
export function extractSignedIn(html: string): SignedInFixture {
  return read(html, signedIn);
}

function signedIn(document: Doc): SignedInFixture {
  const main = required(document, "main", "main content");
  const cards = ([...main.querySelectorAll("[data-testid='forecast-card']")] as El[]).map(card);
  if (cards.length !== EXPECTED.cards) throw new Error(`The signed-in page shows ${cards.length} places, not ${EXPECTED.cards}`);
  return {
    title: document.title,
    header: textRuns(required(document, "header", "page header")),
    heading: text(required(main, "h1", "heading")),
    intro: text(main.querySelector("h1 + p")),
    placesHeading: text(required(main, "h2", "places heading")),
    cards,
  };
}

const BLOCKS = new Set(["H1", "H2", "H3", "P", "LABEL", "BUTTON", "INPUT"]);

/** The visitor `/`: its main content as blocks of text (headings, paragraphs, the search field), in order. */
export function extractVisitor(html: string): VisitorFixture {
  return read(html, visitor);
}

function visitor(document: Doc): VisitorFixture {
  const main = required(document, "main", "main content");
  const blocks: BlockFixture[] = [];
  const walk = (element: El) => {
    for (const child of [...element.children] as El[]) {
      const tag = child.tagName.toUpperCase();
      if (child.hasAttribute("hidden") || SKIPPED.has(tag)) continue;
      if (!BLOCKS.has(tag)) walk(child);
      else if (tag === "INPUT") blocks.push({ tag: "input", text: child.getAttribute("placeholder") ?? "" });
      else blocks.push({ tag: tag.toLowerCase() as BlockFixture["tag"], text: text(child) });
    }
  };
  walk(main);
  if (!blocks.some((block) => block.tag === "h1")) throw new Error("The visitor page has no heading");
  return { title: document.title, header: textRuns(required(document, "header", "page header")), blocks };
}
