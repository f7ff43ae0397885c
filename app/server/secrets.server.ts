import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { serverEnv } from "./env.server";

let generated: string | undefined;

/**
 * Without SESSION_SECRET, a key is generated on first start and kept in DATA_DIR
 * (readable by the owner only), so signed cookies survive restarts.
 */
function dataDirSecret(): string {
  if (generated) return generated;
  const file = path.resolve(serverEnv().DATA_DIR, "session-secret");
  try {
    generated = readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(path.dirname(file), { recursive: true });
    const secret = randomBytes(32).toString("hex");
    try {
      writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
      generated = secret;
    } catch {
      // Another process wrote it first: use theirs.
      generated = readFileSync(file, "utf8").trim();
    }
  }
  return generated;
}

/** Secrets for signing cookies, newest first (rotate by prepending). */
export function cookieSecrets(): string[] {
  return [serverEnv().SESSION_SECRET ?? dataDirSecret()];
}
