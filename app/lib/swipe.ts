import { useRef, type PointerEvent } from "react";

/** A finger must travel this far sideways (CSS pixels), and more sideways than down, to count as a swipe. */
export const SWIPE_MIN_PX = 48;

/** -1 for a swipe to the left (the next item), 1 to the right (the previous one), 0 for anything else. */
export function swipeDirection(dx: number, dy: number): -1 | 0 | 1 {
  if (Math.abs(dx) < SWIPE_MIN_PX || Math.abs(dx) <= Math.abs(dy) * 1.5) return 0;
  return dx < 0 ? -1 : 1;
}

/**
 * Touch swipes on an element whose CSS lets the page scroll only vertically (`touch-action: pan-y`): a
 * gesture the browser takes over (a scroll, or a sideways scroll inside a strip) ends in pointercancel and
 * counts for nothing. `onSwipe(1)` asks for the next item, `onSwipe(-1)` for the previous one.
 */
export function useSwipe(onSwipe: (step: 1 | -1) => void) {
  const start = useRef<{ id: number; x: number; y: number } | null>(null);
  return {
    onPointerDown(event: PointerEvent<HTMLElement>) {
      if (event.pointerType === "mouse") return;
      start.current = { id: event.pointerId, x: event.clientX, y: event.clientY };
    },
    onPointerUp(event: PointerEvent<HTMLElement>) {
      const from = start.current;
      start.current = null;
      if (from?.id !== event.pointerId) return;
      const direction = swipeDirection(event.clientX - from.x, event.clientY - from.y);
      if (direction !== 0) onSwipe(direction === -1 ? 1 : -1);
    },
    onPointerCancel() {
      start.current = null;
    },
  };
}
