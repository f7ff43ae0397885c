import { useEffect, useRef } from "react";

/** How long a pointer or focus rests on a link before it counts as intent (React Router's own delay). */
const INTENT_DELAY_MS = 100;

/** Event handlers for a link that preload its route's modules when the user shows intent to follow it. */
export function useIntentPreload(pathname: string, enabled: boolean) {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const cancel = () => clearTimeout(timer.current);
  useEffect(() => cancel, []);
  const start = (delay: number) => {
    if (!enabled) return;
    cancel();
    // The preloader loads on first use: the first page does not need it.
    timer.current = setTimeout(() => void import("./route-preload").then(({ preloadRoute }) => preloadRoute(pathname)), delay);
  };
  return {
    onMouseEnter: () => start(INTENT_DELAY_MS),
    onFocus: () => start(INTENT_DELAY_MS),
    onTouchStart: () => start(0),
    onMouseLeave: cancel,
    onBlur: cancel,
  };
}
