import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { dictionary } from "@zxcvbn-ts/language-common";

/** OWASP's scrypt parameters (Password Storage Cheat Sheet): N=2^17, r=8, p=1. */
export const SCRYPT = { N: 2 ** 17, r: 8, p: 1, keyLength: 32, saltLength: 16 } as const;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

function scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

// scrypt needs 128·N·r bytes; Node's default limit (32 MiB) is below OWASP's N.
const maxmem = (params: { N: number; r: number }) => 256 * params.N * params.r;

/** "scrypt$N$r$p$salt$hash", base64: the parameters travel with the hash so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SCRYPT.saltLength);
  const key = await scrypt(password, salt, SCRYPT.keyLength, { ...SCRYPT, maxmem: maxmem(SCRYPT) });
  return ["scrypt", SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString("base64"), key.toString("base64")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltText, keyText] = stored.split("$");
  if (scheme !== "scrypt" || !saltText || !keyText) return false;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  const expected = Buffer.from(keyText, "base64");
  const actual = await scrypt(password, Buffer.from(saltText, "base64"), expected.length, {
    ...params,
    maxmem: maxmem(params),
  });
  return timingSafeEqual(actual, expected);
}

/** The 1,000 most common passwords (zxcvbn's frequency list), lower-cased. */
const COMMON_PASSWORDS = new Set(dictionary["passwords-common"]!.slice(0, 1000).map((word) => String(word).toLowerCase()));

/**
 * Why a new password is not acceptable (message and a stable reason code), or null when
 * it is. `email` is the account's (normalised): the address, or the part before its @,
 * is the first thing anyone guesses.
 */
export function passwordProblem(password: string, email?: string): { message: string; reason: string } | null {
  if (password.length < PASSWORD_MIN_LENGTH)
    return { message: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`, reason: "PASSWORD_TOO_SHORT" };
  if (password.length > PASSWORD_MAX_LENGTH)
    return { message: `Password must be at most ${PASSWORD_MAX_LENGTH} characters`, reason: "PASSWORD_TOO_LONG" };
  if (password.trim().length === 0) return { message: "Password cannot be only spaces", reason: "PASSWORD_BLANK" };
  const lower = password.trim().toLowerCase();
  if (email && (lower === email || lower === email.slice(0, email.lastIndexOf("@"))))
    return { message: "Password cannot be your email address or its name part", reason: "PASSWORD_LIKE_EMAIL" };
  if (COMMON_PASSWORDS.has(password.toLowerCase()))
    return { message: "This password is too common; choose another", reason: "PASSWORD_TOO_COMMON" };
  return null;
}
