import { parse } from "cookie";

/** The cookie that carries the API token for the app's own pages. The browser's JavaScript never sees it. */
export const SESSION_COOKIE = "weatherbot_session";

/** The session token a `Cookie` header carries, if any: the app's pages authenticate to the API with it. */
export function sessionTokenFromCookie(cookieHeader: string | null | undefined): string | null {
  return cookieHeader ? (parse(cookieHeader)[SESSION_COOKIE] ?? null) : null;
}
