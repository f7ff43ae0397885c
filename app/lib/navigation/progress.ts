import { useEffect, useState } from "react";

/** Constants of the navigation loading bar (docs/product-constants.md). */
export const LOADING_BAR = {
  throttleMs: 200,
  durationMs: 2000,
  heightPx: 3,
  tickMs: 100,
} as const;

/**
 * How far the bar is after `elapsedMs`, in percent. Navigation length is unknown, so
 * it eases towards 100 % (about 70 % after `durationMs`) and never gets there on its own.
 */
export function estimateProgress(elapsedMs: number, durationMs: number = LOADING_BAR.durationMs): number {
  return (2 / Math.PI) * 100 * Math.atan(((elapsedMs / durationMs) * 100) / 50);
}

/**
 * Drives the bar from a "navigation in progress" flag: nothing for the first
 * `throttleMs`, then a growing bar; when the navigation ends it jumps to 100 % and hides.
 */
export function useNavigationProgress(active: boolean): { visible: boolean; progress: number } {
  const [state, setState] = useState({ visible: false, progress: 0 });

  useEffect(() => {
    if (!active) {
      setState((current) => (current.visible ? { visible: true, progress: 100 } : current));
      const hide = setTimeout(
        () => setState((current) => (current.visible ? { visible: false, progress: 0 } : current)),
        LOADING_BAR.tickMs * 2,
      );
      return () => clearTimeout(hide);
    }
    let interval: ReturnType<typeof setInterval> | undefined;
    const started = Date.now();
    const show = setTimeout(() => {
      const tick = () => setState({ visible: true, progress: estimateProgress(Date.now() - started - LOADING_BAR.throttleMs) });
      tick();
      interval = setInterval(tick, LOADING_BAR.tickMs);
    }, LOADING_BAR.throttleMs);
    return () => {
      clearTimeout(show);
      clearInterval(interval);
    };
  }, [active]);

  return state;
}
