import type { PostHog } from "posthog-js";
import { hasOptedIn } from "./consent";

/** What the server tells the page: the public key and host, or null when analytics is off. */
export type AnalyticsConfig = { key: string; host: string } | null;

/** Tuning from docs/product-constants.md ("Analytics"). */
export const ANALYTICS_SETTINGS = {
  flushIntervalMs: 3000,
  eventsPerSecond: 10,
  eventsBurstLimit: 100,
  sessionIdleTimeoutSeconds: 1800,
  featureFlagRequestTimeoutMs: 3000,
  surveysRequestTimeoutMs: 10000,
} as const;

let client: Promise<PostHog | null> | null = null;

/**
 * Loads posthog-js (a large library, never part of the first load) and starts it. With
 * out the user's opt-in it is not even loaded, so nothing can be sent.
 */
export function startAnalytics(config: AnalyticsConfig): Promise<PostHog | null> {
  if (!config || !hasOptedIn(document.cookie)) return Promise.resolve(null);
  client ??= import("posthog-js").then(({ default: posthog }) => {
    posthog.init(config.key, {
      api_host: config.host,
      capture_pageview: false,
      capture_pageleave: false,
      autocapture: false,
      debug: false,
      disable_session_recording: true,
      // Extra scripts from the analytics host would need a looser CSP.
      disable_external_dependency_loading: true,
      request_queue_config: { flush_interval_ms: ANALYTICS_SETTINGS.flushIntervalMs },
      rate_limiting: { events_per_second: ANALYTICS_SETTINGS.eventsPerSecond, events_burst_limit: ANALYTICS_SETTINGS.eventsBurstLimit },
      session_idle_timeout_seconds: ANALYTICS_SETTINGS.sessionIdleTimeoutSeconds,
      feature_flag_request_timeout_ms: ANALYTICS_SETTINGS.featureFlagRequestTimeoutMs,
      surveys_request_timeout_ms: ANALYTICS_SETTINGS.surveysRequestTimeoutMs,
    });
    return posthog;
  });
  return client;
}

/** The user switched analytics off (or back on) in settings: honoured before anything else is sent. */
export async function setAnalyticsEnabled(enabled: boolean, config: AnalyticsConfig): Promise<void> {
  if (enabled) {
    const posthog = await startAnalytics(config);
    posthog?.opt_in_capturing({ captureEventName: false });
    return;
  }
  const posthog = await client;
  posthog?.opt_out_capturing();
}

/**
 * Page events after each route change: `$pageleave` for the previous full path (only
 * when it changed), then `$pageview` for the new one.
 */
export function trackNavigation(posthog: PostHog, previousUrl: string | null, url: string): void {
  if (!hasOptedIn(document.cookie)) return;
  if (previousUrl !== null && previousUrl !== url) posthog.capture("$pageleave", { current_url: previousUrl });
  posthog.capture("$pageview", { current_url: url });
}
