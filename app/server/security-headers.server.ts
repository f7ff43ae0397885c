import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import helmet from "helmet";

const helmetHeaders = helmet({
  // Pages get a nonce-based CSP from entry.server.tsx; static files need none.
  contentSecurityPolicy: false,
  // Sent below, only to clients that came over HTTPS.
  strictTransportSecurity: false,
  // The browser default: "no-referrer" would make form posts send `Origin: null`.
  referrerPolicy: { policy: "strict-origin-when-cross-origin" },
});

/** One year, as helmet's default: browsers then refuse plain HTTP to this host for that long. */
export const STRICT_TRANSPORT_SECURITY = "max-age=31536000; includeSubDomains";

/**
 * Whether the client reached us over HTTPS: this socket is TLS, or a trusted proxy (Express's
 * "trust proxy", as `req.protocol` reads it) says so in X-Forwarded-Proto.
 */
export function cameOverHttps(req: IncomingMessage, trust: (address: string, hop: number) => boolean): boolean {
  if ((req.socket as TLSSocket).encrypted) return true;
  if (!trust(req.socket.remoteAddress ?? "", 0)) return false;
  const forwarded = req.headers["x-forwarded-proto"];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim().toLowerCase();
  return first === "https";
}

/**
 * Security headers for every response of the server: pages, assets and /graphql alike.
 * HSTS goes only to HTTPS clients (usually behind a TLS-terminating proxy): over plain
 * HTTP it means nothing, and on a plain-HTTP install it would be a trap once HTTPS came.
 */
export function securityHeaders(trust: (address: string, hop: number) => boolean) {
  return (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => {
    if (cameOverHttps(req, trust)) res.setHeader("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY);
    helmetHeaders(req, res, next);
  };
}
