/** The user's choice lives in a cookie the page can read, so the server renders the right setting too. */
export const ANALYTICS_CONSENT_COOKIE = "weatherbot_analytics";
const ONE_YEAR_SECONDS = 365 * 24 * 3600;

/** Opt-in: nothing is shared until the user ticks the box (the cookie then says "on"). */
export function hasOptedIn(cookieHeader: string | null | undefined): boolean {
  return (cookieHeader ?? "").split(/;\s*/).some((pair) => pair === `${ANALYTICS_CONSENT_COOKIE}=on`);
}

/** Browser only: remembers the choice for a year. */
export function writeAnalyticsChoice(enabled: boolean): void {
  document.cookie = `${ANALYTICS_CONSENT_COOKIE}=${enabled ? "on" : "off"}; Path=/; Max-Age=${ONE_YEAR_SECONDS}; SameSite=Lax`;
}
