import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import type { AnalyticsConfig } from "~/lib/analytics/analytics";

/**
 * Starts analytics after hydration (never before the first paint) and records each
 * route change by its full path (path, query and hash). Its code loads only where the
 * server configured analytics: most pages never need it.
 */
export function AnalyticsTracker({ config }: { config: AnalyticsConfig }) {
  const location = useLocation();
  const previous = useRef<string | null>(null);
  const fullPath = `${location.pathname}${location.search}${location.hash}`;
  const key = config?.key ?? null;
  const host = config?.host ?? null;
  useEffect(() => {
    if (!key || !host) return;
    let active = true;
    void import("~/lib/analytics/analytics").then(async ({ startAnalytics, trackNavigation }) => {
      const posthog = await startAnalytics({ key, host });
      if (!active || !posthog || previous.current === fullPath) return;
      trackNavigation(posthog, previous.current, fullPath);
      previous.current = fullPath;
    });
    return () => {
      active = false;
    };
  }, [key, host, fullPath]);
  return null;
}
