/** docs/product-constants.md: a sessionStorage marker stops a reload loop; it expires after 10 s. */
export const RELOAD_MARKER_KEY = "weatherbot:reload";
export const RELOAD_MARKER_TTL_MS = 10_000;

/**
 * Claims the right to force one reload. False while a reload forced less than 10 s ago
 * is still marked: then the page was just reloaded for the same reason and reloading
 * again would loop.
 */
export function claimForcedReload(storage: Storage = sessionStorage, now = Date.now()): boolean {
  try {
    const last = Number(storage.getItem(RELOAD_MARKER_KEY));
    if (Number.isFinite(last) && last > 0 && now - last < RELOAD_MARKER_TTL_MS) return false;
    storage.setItem(RELOAD_MARKER_KEY, String(now));
    return true;
  } catch {
    // No sessionStorage (privacy mode): without a guard, never force a reload.
    return false;
  }
}
