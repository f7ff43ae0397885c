import { randomBytes } from "node:crypto";
import { serverEnv } from "./env.server";

// Without SESSION_SECRET the process signs with a random key of its own: signed
// cookies (flash messages) then do not survive a restart, which is harmless for them.
const processSecret = randomBytes(32).toString("hex");

/** Secrets for signing cookies, newest first (rotate by prepending). */
export function cookieSecrets(): string[] {
  return [serverEnv().SESSION_SECRET ?? processSecret];
}
