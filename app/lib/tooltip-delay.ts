/** Tooltip timing (docs/product-constants.md): open after 700 ms; within 300 ms of another tooltip, at once. */
export const TOOLTIP_DELAYS = { delayDurationMs: 700, skipDelayDurationMs: 300 } as const;

/**
 * Whether tooltips open without delay right now: while one is open, and for
 * `skipDelayDurationMs` after it closes. This is what Radix's TooltipProvider tracks,
 * kept here so tooltips can load lazily, each with its own provider, and still share it.
 */
export function createTooltipSkipState(skipDelayMs: number = TOOLTIP_DELAYS.skipDelayDurationMs) {
  let active = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const listeners = new Set<() => void>();
  const set = (next: boolean) => {
    if (next === active) return;
    active = next;
    for (const listener of listeners) listener();
  };
  return {
    isActive: () => active,
    opened() {
      clearTimeout(timer);
      set(true);
    },
    closed() {
      clearTimeout(timer);
      timer = setTimeout(() => set(false), skipDelayMs);
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

export const tooltipSkipState = createTooltipSkipState();

/** The open delay a tooltip should use now. */
export function tooltipOpenDelay(skipActive: boolean): number {
  return skipActive ? 0 : TOOLTIP_DELAYS.delayDurationMs;
}
