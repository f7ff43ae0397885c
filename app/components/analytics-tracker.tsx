import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { startAnalytics, trackNavigation, type AnalyticsConfig } from "~/lib/analytics/analytics";

/**
 * Starts analytics after hydration (never before the first paint) and records each
 * route change by its full path (path, query and hash).
 */
export function AnalyticsTracker({ config }: { config: AnalyticsConfig }) {
  const location = useLocation();
  const previous = useRef<string | null>(null);
  const fullPath = `${location.pathname}${location.search}${location.hash}`;
  const key = config?.key ?? null;
  const host = config?.host ?? null;
  useEffect(() => {
    let active = true;
    void startAnalytics(key && host ? { key, host } : null).then((posthog) => {
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
