import type { ShouldRevalidateFunctionArgs } from "react-router";

/** A client action that did not reach the server because the browser is offline marks its answer so. */
export type OfflineRefusal = { offline: true };

let justRefused = false;

/** Marks an action's answer as refused offline; the revalidation that follows it is let through as is. */
export function refusedOffline<T extends object>(answer: T): T & OfflineRefusal {
  justRefused = true;
  return { ...answer, offline: true };
}

/**
 * True once after an action was refused offline: the root middleware must not turn the
 * revalidation that follows into a full page load (it loads nothing, see below).
 */
export function takeOfflineRefusal(): boolean {
  const refused = justRefused;
  justRefused = false;
  return refused;
}

export function isOfflineRefusal(actionResult: unknown): actionResult is OfflineRefusal {
  return typeof actionResult === "object" && actionResult !== null && (actionResult as { offline?: unknown }).offline === true;
}

/**
 * `shouldRevalidate` of the routes with loaders: after an action refused offline nothing
 * changed, and reloading would only turn the page into a full load of the worker's copy,
 * losing the message the action left on it.
 */
export function revalidateUnlessRefusedOffline({ actionResult, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs): boolean {
  return isOfflineRefusal(actionResult) ? false : defaultShouldRevalidate;
}
