import { useSyncExternalStore } from "react";
import { assertOverlayName, type OverlayName } from "./registry";

export type OpenOverlay = { name: OverlayName; params: Record<string, string> };

let current: OpenOverlay | null = null;
const listeners = new Set<() => void>();

function set(next: OpenOverlay | null) {
  current = next;
  for (const listener of listeners) listener();
}

/**
 * Opens the overlay registered under `name` (with `params`, e.g. which briefing to edit);
 * throws `Overlay not found` for an unknown one.
 */
export function openOverlay(name: OverlayName, params: Record<string, string> = {}): void {
  assertOverlayName(name);
  set({ name, params });
}

export function closeOverlay(): void {
  set(null);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function useOpenOverlay(): OpenOverlay | null {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
}
