import { useSyncExternalStore } from "react";
import { resolveOverlay, type OverlayName } from "./registry";

let current: OverlayName | null = null;
const listeners = new Set<() => void>();

function set(next: OverlayName | null) {
  current = next;
  for (const listener of listeners) listener();
}

/** Opens the overlay registered under `name`; throws `Overlay not found` for an unknown one. */
export function openOverlay(name: OverlayName): void {
  resolveOverlay(name);
  set(name);
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

export function useOpenOverlay(): OverlayName | null {
  return useSyncExternalStore(subscribe, () => current, () => null);
}
