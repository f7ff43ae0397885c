import { createHmac, timingSafeEqual } from "node:crypto";
import { deriveKey } from "./sealed.server";

/**
 * Tokens for links that act without a log-in (a briefing's unsubscribe link): the id, and an
 * HMAC-SHA256 of it under a key of their own derived from the instances' shared secret. No row
 * is needed to check one, so a link in any mail ever sent keeps working, and nobody can make one
 * for a briefing that is not theirs.
 */
export function createLinkSigner(secret: string, purpose: string) {
  const key = deriveKey(secret, `signed link: ${purpose}`);
  const mac = (id: string) => createHmac("sha256", key).update(id).digest();
  return {
    sign: (id: string) => `${id}.${mac(id).toString("base64url")}`,
    /** The id a token names, or null when it was not made here (or was changed). */
    verify(token: string): string | null {
      const dot = token.lastIndexOf(".");
      if (dot <= 0 || token.length > 200) return null;
      const id = token.slice(0, dot);
      const given = Buffer.from(token.slice(dot + 1), "base64url");
      const expected = mac(id);
      return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
    },
  };
}

export type LinkSigner = ReturnType<typeof createLinkSigner>;
