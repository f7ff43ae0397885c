import helmet from "helmet";

/** Security headers for every response of the server: pages, assets and /graphql alike. */
export const securityHeaders = helmet({
  // Pages get a nonce-based CSP from entry.server.tsx; static files need none.
  contentSecurityPolicy: false,
  // HSTS only means something over HTTPS, which a reverse proxy terminates.
  strictTransportSecurity: false,
  // The browser default: "no-referrer" would make form posts send `Origin: null`.
  referrerPolicy: { policy: "strict-origin-when-cross-origin" },
});
