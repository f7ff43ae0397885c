import { lazy, type ComponentType, type LazyExoticComponent } from "react";

/** What every overlay receives: a way to close itself, and what it was opened with. */
export type OverlayProps = { close: () => void; params: Record<string, string> };

type OverlayComponent = LazyExoticComponent<ComponentType<OverlayProps>>;

/**
 * Overlays (modals, sheets) by name. Each is a lazy chunk: none of them is part of
 * the first page load. Later features register theirs here.
 */
const overlays = {
  about: lazy(() => import("~/components/overlays/about-overlay")),
  "add-place": lazy(() => import("~/components/overlays/add-place-overlay")),
  briefing: lazy(() => import("~/components/overlays/briefing-overlay")),
  "alert-rule": lazy(() => import("~/components/overlays/alert-rule-overlay")),
  "starter-rules": lazy(() => import("~/components/overlays/starter-rules-overlay")),
} satisfies Record<string, OverlayComponent>;

export type OverlayName = keyof typeof overlays;

/** The component registered under `name`; an unknown name throws `Overlay not found`. */
export function resolveOverlay(name: string): OverlayComponent {
  if (!Object.hasOwn(overlays, name)) throw new Error("Overlay not found");
  return overlays[name as OverlayName];
}
