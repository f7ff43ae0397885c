/**
 * The page's first Intl number format loads ICU's number data: 13–26 ms in Chromium on this project's machines, four
 * times that on Lighthouse's phone, inside whichever component formats a figure first (a card's temperature). In a
 * task of its own, started while the entry waits for its locale's texts, it is out of hydration's tasks, each of
 * which should stay short (issue 35's blocking time). Only where the server rendered a forecast: a page without one
 * formats no figure while it hydrates, and would pay for nothing.
 */
export function warmIntlForForecasts(locale: string): void {
  if (!document.querySelector('[data-testid="forecast-card"]')) return;
  setTimeout(() => {
    try {
      new Intl.NumberFormat(locale).format(0);
    } catch {
      // A locale Intl does not know: the page formats with its fallback, nothing to warm.
    }
  }, 0);
}
