import type { NextFunction, Request, Response } from "express";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSRF protection for everything that changes state: a browser request whose
 * Origin names another site, or that the browser itself marks cross-site
 * (Sec-Fetch-Site), is refused before it reaches an action. Requests without
 * either header (curl, server-to-server) carry no ambient cookies from a
 * victim's browser and pass.
 */
export function isCrossSiteWrite(
  method: string,
  headers: Record<string, string | string[] | undefined>,
  host: string | undefined,
): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return false;
  // Browsers that send Sec-Fetch-Site say exactly where the request came from
  // ("none" is the user's own action, such as a bookmark).
  const fetchSite = headers["sec-fetch-site"];
  if (typeof fetchSite === "string" && fetchSite !== "") return fetchSite !== "same-origin" && fetchSite !== "none";
  const origin = headers.origin;
  if (typeof origin !== "string" || origin === "") return false;
  if (origin === "null") return true;
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}

/** The answer to a refused cross-site write (403). */
export const CROSS_SITE_REFUSAL = { error: "Cross-site request refused", code: "FORBIDDEN" } as const;

export function sameOriginWrites(req: Request, res: Response, next: NextFunction) {
  // Express 5's req.host is host:port, from X-Forwarded-Host only behind a trusted proxy.
  if (isCrossSiteWrite(req.method, req.headers, req.host)) {
    res.status(403).json(CROSS_SITE_REFUSAL);
    return;
  }
  next();
}
