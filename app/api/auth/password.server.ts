import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from "node:crypto";

/** OWASP's scrypt parameters (Password Storage Cheat Sheet): N=2^17, r=8, p=1. */
export const SCRYPT = { N: 2 ** 17, r: 8, p: 1, keyLength: 32, saltLength: 16 } as const;

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
