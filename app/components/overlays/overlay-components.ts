import { lazy } from "react";
import { assertOverlayName, type OverlayComponent, type OverlayName } from "~/lib/overlays/registry";

/** Each overlay is a lazy chunk: none of them is part of the first page load. */
const overlays = {
  about: lazy(() => import("./about-overlay")),
  "add-place": lazy(() => import("./add-place-overlay")),
  briefing: lazy(() => import("./briefing-overlay")),
  "alert-rule": lazy(() => import("./alert-rule-overlay")),
  "starter-rules": lazy(() => import("./starter-rules-overlay")),
} satisfies Record<OverlayName, OverlayComponent>;

/** The component registered under `name`; an unknown name throws `Overlay not found`. */
export function resolveOverlay(name: string): OverlayComponent {
  assertOverlayName(name);
  return overlays[name];
}
