import { describe, expect, it } from "vitest";
import { hashPassword, SCRYPT, TEST_SCRYPT, verifyPassword } from "~/api/auth/password.server";

describe("password hashes", () => {
  it("are made at OWASP's scrypt cost unless a test run asks for its own", async () => {
    expect(await hashPassword("correct horse")).toMatch(new RegExp(`^scrypt\\$${2 ** 17}\\$8\\$1\\$`));
    expect(SCRYPT).toMatchObject({ N: 2 ** 17, r: 8, p: 1 });
    expect(await hashPassword("correct horse", "test")).toMatch(new RegExp(`^scrypt\\$${TEST_SCRYPT.N}\\$8\\$1\\$`));
    expect(TEST_SCRYPT.N).toBeLessThan(SCRYPT.N);
  });

  it("carry their cost, so a password checks against a hash of either cost", async () => {
    for (const cost of ["owasp", "test"] as const) {
      const stored = await hashPassword("correct horse", cost);
      expect(await verifyPassword("correct horse", stored)).toBe(true);
      expect(await verifyPassword("wrong horse", stored)).toBe(false);
    }
  });
});
