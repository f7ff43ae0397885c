import { useEffect } from "react";

/** What the person does that ends the page's own scrolling: from then on, where the page is, is theirs. */
const TAKEN_OVER = ["wheel", "touchstart", "keydown", "pointerdown"] as const;

/**
 * Scrolls to the element `id` (its CSS scroll-margin keeps it below the sticky header), and keeps it there while
 * the page settles: the sections above it fill in after hydration (places, rules, preferences load their data), and
 * the one a link named went out of view, or under the header (issue 35). Until the person scrolls, taps or types.
 */
export function useSectionInView(id: string | null): void {
  useEffect(() => {
    const target = id ? document.getElementById(id) : null;
    if (!target) return;
    const show = () => target.scrollIntoView({ block: "start" });
    show();
    const observer = new ResizeObserver(show);
    observer.observe(document.body);
    const stop = () => {
      observer.disconnect();
      for (const type of TAKEN_OVER) window.removeEventListener(type, stop);
    };
    for (const type of TAKEN_OVER) window.addEventListener(type, stop, { once: true, passive: true });
    return stop;
  }, [id]);
}
