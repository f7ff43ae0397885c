import { createHash } from "node:crypto";
import { serialize } from "cookie";
import { SESSION_COOKIE, sessionTokenFromCookie } from "../shared/session-cookie";

export { SESSION_COOKIE };
export const SESSION_MAX_AGE_SECONDS = 604_800;

/** Secure whenever the request is HTTPS, including behind a trusted proxy that set X-Forwarded-Proto. */
const isHttps = (request: Request) => new URL(request.url).protocol === "https:";

export function sessionCookie(request: Request, token: string): string {
  return serialize(SESSION_COOKIE, token, {
    maxAge: SESSION_MAX_AGE_SECONDS,
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: isHttps(request),
  });
}

export function clearedSessionCookie(request: Request): string {
  return serialize(SESSION_COOKIE, "", { maxAge: 0, httpOnly: true, sameSite: "lax", path: "/", secure: isHttps(request) });
}

export function sessionToken(request: Request): string | null {
  return sessionTokenFromCookie(request.headers.get("Cookie"));
}

/**
 * Names the session for the browser (so it knows when to start a fresh cache) without
 * revealing the token: a one-way digest, shortened.
 */
export function sessionKey(request: Request): string | null {
  const token = sessionToken(request);
  return token ? createHash("sha256").update(`weatherbot-session-key:${token}`).digest("base64url").slice(0, 22) : null;
}
