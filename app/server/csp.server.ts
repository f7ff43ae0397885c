import { createHash, randomFillSync } from "node:crypto";

const NONCE_BYTES = 16;
/** Random bytes for the next 256 nonces: one call to the system's generator instead of one per page (2.4 µs each). */
const noncePool = Buffer.alloc(NONCE_BYTES * 256);
let nextNonceAt = noncePool.length;

/** A page's CSP nonce: 128 random bits, each byte used once. */
export function createNonce(): string {
  if (nextNonceAt === noncePool.length) {
    randomFillSync(noncePool);
    nextNonceAt = 0;
  }
  const nonce = noncePool.toString("base64", nextNonceAt, nextNonceAt + NONCE_BYTES);
  nextNonceAt += NONCE_BYTES;
  return nonce;
}

/**
 * The Content-Security-Policy of every server-rendered page: scripts carrying this
 * response's nonce and what they load; styles from this origin or with the nonce. Inline `style` attributes stay
 * allowed because React and Radix position things with them. `connectTo` adds origins
 * the page may call (the analytics host, when analytics is configured).
 */
export function contentSecurityPolicy(nonce: string, connectTo: string[] = []): string {
  return [
    "default-src 'self'",
    // 'strict-dynamic': what the nonced scripts load (route chunks, lazily loaded analytics) runs;
    // nothing else does, whatever its origin. 'self' is only for browsers without CSP3.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    ["connect-src 'self'", ...connectTo].join(" "),
    "manifest-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** A CSP source for inline text by its SHA-256 hash. */
export function hashSource(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/**
 * The CSP of the static offline page (scripts/offline-page-plugin.ts), which has no server
 * render and so no nonce: its one inline script and one inline style by hash, images from
 * this origin, nothing else.
 */
export function offlinePagePolicy(script: string, style: string): string {
  return [
    "default-src 'none'",
    `script-src ${hashSource(script)}`,
    `style-src ${hashSource(style)}`,
    "img-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

/** The header for the offline page: the policy its meta tag carries, and what a meta tag cannot say. */
export function offlinePageHeader(html: string): string | null {
  const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
  return policy ? `${policy}; frame-ancestors 'none'` : null;
}
