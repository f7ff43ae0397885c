/**
 * What toasts keep clear of: the charts and the lists a person reads (a place's hours, the rules, the inbox). The
 * toasts sit at the bottom centre (the seed's place for them), over whatever the page shows there; a chart or a list
 * that ends behind them is lifted above them (issue 35: they covered the chart and the rules list).
 */
const READ_CONTENT = 'main svg[role="img"], main ul, main ol';
/** Room left between the content lifted and the toasts. */
const CLEARANCE_PX = 8;

type Box = { top: number; bottom: number; left: number; right: number };

const overlaps = (a: Box, b: Box) => a.top < b.bottom && b.top < a.bottom && a.left < b.right && b.left < a.right;

/**
 * How far the page must scroll for every chart or list that ends behind `toasts` (in view, its end on screen) to end
 * above them, without its top going under the sticky header (`headerBottom`); 0 when nothing needs it. Content that
 * goes on below the screen cannot be lifted clear, and is left as it is.
 */
export function liftNeeded(toasts: Box, content: readonly Box[], viewportHeight: number, headerBottom: number): number {
  let lift = 0;
  for (const box of content) {
    if (!overlaps(box, toasts) || box.bottom > viewportHeight) continue;
    const needed = box.bottom - toasts.top + CLEARANCE_PX;
    if (box.top - needed >= headerBottom) lift = Math.max(lift, needed);
  }
  return lift;
}

/** Lifts what `toasts` (the open toasts' stack) would cover, as liftNeeded says; the page's end gets the room it needs. */
export function keepClearOf(toasts: Element, header: Element | null): void {
  const stack = toasts.getBoundingClientRect();
  if (stack.height === 0) return;
  const content = [...document.querySelectorAll(READ_CONTENT)].map((element) => element.getBoundingClientRect());
  const lift = liftNeeded(stack, content, window.innerHeight, header?.getBoundingClientRect().bottom ?? 0);
  if (lift === 0) return;
  // At the page's end there may be nothing left to scroll: the room under the content grows as the stack is tall.
  document.documentElement.style.setProperty("--toast-room", `${Math.ceil(stack.height)}px`);
  const reduced = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  window.scrollBy({ top: lift, behavior: reduced ? "auto" : "smooth" });
}

/** Once the last toast is gone, the page's end is as before. */
export function releaseRoom(): void {
  document.documentElement.style.removeProperty("--toast-room");
}
