import type { DataStrategyResult } from "react-router";
import { createBuildWatcher } from "./build-update";
import { connectivity } from "./connectivity";
import { takeOfflineRefusal } from "./offline-refusal";
import { claimForcedReload } from "./reload-guard";

export const buildWatcher = typeof window === "undefined" ? null : createBuildWatcher(__BUILD_ID__);

/** Where the client navigation under way is going (client loaders do not get the URL). */
let navigationTarget: string | null = null;

function loadInFull(href: string): Promise<never> {
  window.location.assign(href);
  // The page is being replaced: the client navigation never completes.
  return new Promise<never>(() => undefined);
}

/**
 * Root client middleware: a client navigation becomes a full page load when the server
 * runs a newer build (once per 10 s, against a reload loop), or when the server cannot be
 * reached (the service worker then answers with the page it cached). Submissions are left
 * alone: a full load would drop what the user sent.
 */
export async function fullLoadWhenNeeded(
  { request }: { request: Request },
  next: () => Promise<Record<string, DataStrategyResult>>,
): Promise<Record<string, DataStrategyResult>> {
  if (request.method !== "GET" || takeOfflineRefusal()) return next();
  const url = new URL(request.url);
  const href = url.pathname + url.search + url.hash;
  if (buildWatcher?.isOutdated() && claimForcedReload()) return loadInFull(href);
  if (!connectivity.isReachable()) return loadInFull(href);
  navigationTarget = href;
  try {
    return await next();
  } finally {
    navigationTarget = null;
  }
}

/** A client loader's request got no answer: load the page in full, from the worker's copy. */
export function loadNavigationInFull(): Promise<never> | null {
  connectivity.reportUnreachable();
  return navigationTarget ? loadInFull(navigationTarget) : null;
}
