import { test as base, expect, type BrowserContext, type ConsoleMessage, type Page } from "@playwright/test";

/**
 * Gives the context's pages the run's clock: this process's, which scripts/test-clock.mjs pins for the server and the
 * tests alike (Chromium itself runs on real time). Time runs on from there; a test may still pause or move it.
 */
export async function pinClock(context: BrowserContext) {
  await context.clock.install({ time: Date.now() });
}

/** Loads a page and waits until React has hydrated it (root.tsx sets data-hydrated). */
export async function gotoHydrated(page: Page, url: string) {
  const response = await page.goto(url);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  return response;
}

type ConsoleGuard = {
  /** Console errors matching this pattern are expected by the test and do not fail it. */
  allow: (pattern: RegExp) => void;
  /** Every console message so far, as "type: text". */
  messages: () => string[];
};

/** What the page's CSP blocked, as the browser reports it to the page (see cspViolationReporter). */
export const CSP_VIOLATION_PREFIX = "CSP violation:";

/**
 * Runs in every page before its own scripts: each `securitypolicyviolation` event becomes a
 * console error, so a violation fails the test even where Chromium logs none of its own
 * (report-only policies, blocked images and styles it reports only as an event).
 */
function cspViolationReporter(prefix: string) {
  document.addEventListener("securitypolicyviolation", (event) => {
    console.error(
      `${prefix} ${event.effectiveDirective} blocked ${event.blockedURI || "(inline)"} in ${event.sourceFile || event.documentURI}`,
    );
  });
}

/**
 * Every test runs against the shared production server, and fails on any console
 * error or uncaught page error it did not declare with `consoleGuard.allow`, and on any
 * Content Security Policy violation (an event, or a console message of any level naming CSP).
 * Its pages run on the run's pinned clock.
 */
export const test = base.extend<{ consoleGuard: ConsoleGuard }>({
  context: async ({ context }, use) => {
    await pinClock(context);
    await use(context);
  },
  baseURL: async ({}, use) => {
    const url = process.env.E2E_BASE_URL;
    if (!url) throw new Error("E2E_BASE_URL is not set: the global setup did not start the server.");
    await use(url);
  },
  consoleGuard: [
    async ({ page }, use) => {
      const allowed: RegExp[] = [];
      const messages: string[] = [];
      const unexpected: string[] = [];
      const record = (text: string, isError: boolean) => {
        messages.push(text);
        if (isError && !allowed.some((pattern) => pattern.test(text))) unexpected.push(text);
      };
      await page.addInitScript(cspViolationReporter, CSP_VIOLATION_PREFIX);
      page.on("console", (message: ConsoleMessage) =>
        record(`${message.type()}: ${message.text()}`, message.type() === "error" || /Content[- ]Security[- ]Policy/i.test(message.text())),
      );
      page.on("pageerror", (error) => record(`pageerror: ${error.message}`, true));
      await use({ allow: (pattern) => allowed.push(pattern), messages: () => [...messages] });
      // Errors are re-checked at the end so a late `allow` still counts.
      const still = unexpected.filter((text) => !allowed.some((pattern) => pattern.test(text)));
      expect(still, "unexpected console errors").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
