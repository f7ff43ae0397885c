import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/** Keys of their own, each derived from the one secret every instance shares (SESSION_SECRET), by purpose. */
export function deriveKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "weatherbot", purpose, 32));
}

/**
 * What the outbox keeps of a mail, sealed (AES-256-GCM): a reset or confirmation link in it is a
 * live token until the mail is sent, and the database must not hold one readable (the token's own
 * row keeps only its hash). Any instance with the same secret can open it; a row altered or sealed
 * with another secret does not open.
 */
export function createSealer(secret: string) {
  const key = deriveKey(secret, "mail outbox");
  return {
    seal(value: unknown): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
      return ["v1", iv, body, cipher.getAuthTag()].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
    },
    /** Throws when the text was not sealed with this secret, or was changed since. */
    open<T>(sealed: string): T {
      const [version, iv, body, tag] = sealed.split(".");
      if (version !== "v1" || !iv || body === undefined || !tag) throw new Error("not a sealed mail");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      const text = Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
      return JSON.parse(text) as T;
    },
  };
}

export type Sealer = ReturnType<typeof createSealer>;
