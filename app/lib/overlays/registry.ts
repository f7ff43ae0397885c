import type { ComponentType, LazyExoticComponent } from "react";

/** What every overlay receives: a way to close itself, and what it was opened with. */
export type OverlayProps = { close: () => void; params: Record<string, string> };

export type OverlayComponent = LazyExoticComponent<ComponentType<OverlayProps>>;

/**
 * Overlays (modals, sheets) by name. The components register under these names in
 * app/components/overlays/overlay-components.ts: this module names them without importing
 * them, so lib code (the overlay store) does not depend on components.
 */
export const OVERLAY_NAMES = ["about", "add-place", "briefing", "alert-rule", "starter-rules"] as const;

export type OverlayName = (typeof OVERLAY_NAMES)[number];

/** Throws `Overlay not found` unless `name` is a registered overlay. */
export function assertOverlayName(name: string): asserts name is OverlayName {
  if (!(OVERLAY_NAMES as readonly string[]).includes(name)) throw new Error("Overlay not found");
}
