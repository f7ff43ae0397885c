/**
 * What the real `/` shows, read from its server-rendered HTML: the bare baseline page
 * (scripts/bench/bare-page) renders the same visible content from it, so the page benchmark
 * compares the app with a page that shows the same thing and does nothing else.
 *
 * Read from the rendered page rather than fetched from the API and formatted again: the
 * texts are then exactly the ones a person sees (units, locale, the place's time zone, the
 * hours from now, "Today"), with no second copy of the app's formatting to drift from it.
 * Only the page's structure is assumed (a switcher row per place; one open card with a header, the
 * current conditions, a section of hours and one of days, a footer), and every count is checked.
 */
import { Window } from "happy-dom";

/** One hour or day of a card: its texts in order, its icon (a sprite reference), its range bar. */
export type CellFixture = { texts: string[]; icon: string | null; range: { left: string; right: string } | null };

/** A chart's element: its tag, its attributes and its own text (a label); the chart's groups are flattened. */
export type ShapeFixture = { tag: string; attributes: Record<string, string>; text: string };
export type ChartFixture = { viewBox: string; shapes: ShapeFixture[] };

/** The open place's card: the whole forecast. */
export type CardFixture = {
  title: string;
  subtitle: string;
  icon: string | null;
  /** The current conditions' texts, in order (temperature, the header's sentence, each figure's label and value). */
  current: string[];
  /** The hours' section's own texts: its heading, the views' tabs and keys. */
  hoursTexts: string[];
  charts: ChartFixture[];
  hours: CellFixture[];
  /** The wind view's hours (speed and gusts). */
  wind: CellFixture[];
  daysHeading: string;
  days: CellFixture[];
  footer: string[];
};

/** A row of the place switcher: the link that opens the place, its texts and icon. */
export type RowFixture = { href: string; texts: string[]; icon: string | null };

export type SignedInFixture = {
  title: string;
  header: string[];
  heading: string;
  intro: string;
  placesHeading: string;
  /** The one place shown whole. */
  card: CardFixture;
  rows: RowFixture[];
};

/** A block of the visitor page's main content, in order. */
export type BlockFixture = { tag: "h1" | "h2" | "h3" | "p" | "label" | "button" | "input"; text: string };

export type VisitorFixture = { title: string; header: string[]; blocks: BlockFixture[] };

export type PagesFixture = { signedIn: SignedInFixture; visitor: VisitorFixture };

/** The measured page: ten places in the switcher, one of them open with 24 hours and 7 days. */
export const EXPECTED = { places: 10, hours: 24, days: 7 };

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

const attributesOf = (element: El): Record<string, string> =>
  Object.fromEntries([...element.attributes].map((attribute) => [attribute.name, attribute.value ?? ""]));

function chart(svg: El): ChartFixture {
  const shapes = ([...svg.querySelectorAll("*")] as El[])
    .filter((element) => element.tagName.toLowerCase() !== "g")
    .map((element) => ({ tag: element.tagName.toLowerCase(), attributes: attributesOf(element), text: element.textContent ?? "" }));
  return { viewBox: svg.getAttribute("viewBox") ?? "", shapes };
}

/** The open place's card: 24 hours (with their views) and 7 days. */
function card(article: El): CardFixture {
  const header = required(article, "header", "card header");
  const title = text(required(header, "h3", "card title"));
  const [hoursSection, daysSection] = [...article.querySelectorAll("section")] as El[];
  if (!hoursSection || !daysSection) throw new Error(`The card "${title}" has no hours and days sections`);
  const footer = required(article, "footer", "card footer");
  const inParts = (element: El) => element === header || element.tagName === "SECTION" || element === footer;
  const hours = ([...hoursSection.querySelectorAll("li")] as El[]).map(cell);
  const days = ([...daysSection.querySelectorAll("li")] as El[]).map(cell);
  if (hours.length !== EXPECTED.hours) throw new Error(`The card "${title}" shows ${hours.length} hours, not ${EXPECTED.hours}`);
  if (days.length !== EXPECTED.days) throw new Error(`The card "${title}" shows ${days.length} days, not ${EXPECTED.days}`);
  const current = textRuns(article, inParts);
  if (current.length === 0) throw new Error(`The card "${title}" shows no current conditions`);
  return {
    title,
    subtitle: text(header.querySelector("p")),
    icon: iconOf(article.querySelector(":scope > div") ?? article),
    current,
    hoursTexts: textRuns(hoursSection, (element) => element.tagName === "OL" || element.hasAttribute("data-testid")),
    charts: ([...hoursSection.querySelectorAll("svg[role='img']")] as El[]).map(chart),
    hours,
    wind: ([...hoursSection.querySelectorAll("[data-testid='wind-hour']")] as El[]).map(cell),
    daysHeading: text(daysSection.querySelector("h4")),
    days,
    footer: textRuns(footer),
  };
}

function row(item: El): RowFixture {
  return { href: item.querySelector("a")?.getAttribute("href") ?? "", texts: textRuns(item), icon: iconOf(item) };
}

/** The signed-in `/` with its places: the cards' visible figures, and the page's heading around them. */
export function extractSignedIn(html: string): SignedInFixture {
  return read(html, signedIn);
}

function signedIn(document: Doc): SignedInFixture {
  const main = required(document, "main", "main content");
  const rows = ([...main.querySelectorAll("[data-testid='places'] li")] as El[]).map(row);
  if (rows.length !== EXPECTED.places) throw new Error(`The signed-in page shows ${rows.length} places, not ${EXPECTED.places}`);
  const cards = [...main.querySelectorAll("[data-testid='forecast-card']")] as El[];
  if (cards.length !== 1) throw new Error(`The signed-in page shows ${cards.length} whole places, not 1`);
  return {
    title: document.title,
    header: textRuns(required(document, "header", "page header")),
    heading: text(required(main, "h1", "heading")),
    intro: text(main.querySelector("h1 + p")),
    placesHeading: text(required(main, "h2", "places heading")),
    card: card(cards[0]!),
    rows,
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
