import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from "node:crypto";

/** OWASP's scrypt parameters (Password Storage Cheat Sheet): N=2^17, r=8, p=1. */
export const SCRYPT = { N: 2 ** 17, r: 8, p: 1, keyLength: 32, saltLength: 16 } as const;

/**
 * For test runs only (PASSWORD_HASH_COST=test, which a production server refuses): the same code with 128 times less
 * work, since a test suite signs up hundreds of accounts. Hashes carry their parameters, so checking a password never
 * depends on the setting.
 */
export const TEST_SCRYPT = { ...SCRYPT, N: 2 ** 10 } as const;

export const PASSWORD_HASH_COSTS = ["owasp", "test"] as const;
export type PasswordHashCost = (typeof PASSWORD_HASH_COSTS)[number];
const PARAMETERS = { owasp: SCRYPT, test: TEST_SCRYPT } as const;

function scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

// scrypt needs 128·N·r bytes; Node's default limit (32 MiB) is below OWASP's N.
const maxmem = (params: { N: number; r: number }) => 256 * params.N * params.r;

/** "scrypt$N$r$p$salt$hash", base64: the parameters travel with the hash so they can be raised later. */
export async function hashPassword(password: string, cost: PasswordHashCost = "owasp"): Promise<string> {
  const params = PARAMETERS[cost];
  const salt = randomBytes(params.saltLength);
  const key = await scrypt(password, salt, params.keyLength, { ...params, maxmem: maxmem(params) });
  return ["scrypt", params.N, params.r, params.p, salt.toString("base64"), key.toString("base64")].join("$");
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
