/** The opt-out lives in a cookie the page can read, so the server renders the right setting too. */
export const ANALYTICS_OPT_OUT_COOKIE = "weatherbot_analytics";
const ONE_YEAR_SECONDS = 365 * 24 * 3600;

export function isOptedOut(cookieHeader: string | null | undefined): boolean {
  return (cookieHeader ?? "").split(/;\s*/).some((pair) => pair === `${ANALYTICS_OPT_OUT_COOKIE}=off`);
}

/** Browser only: remembers the choice for a year. */
export function writeAnalyticsChoice(enabled: boolean): void {
  document.cookie = `${ANALYTICS_OPT_OUT_COOKIE}=${enabled ? "on" : "off"}; Path=/; Max-Age=${ONE_YEAR_SECONDS}; SameSite=Lax`;
}
