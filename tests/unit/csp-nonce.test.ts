import { describe, expect, it } from "vitest";
import { createNonce } from "~/server/csp.server";

describe("a page's CSP nonce", () => {
  it("is 128 bits, and no two pages get the same, across the refills of its random pool", () => {
    const nonces = Array.from({ length: 1000 }, createNonce);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
    expect(new Set(nonces).size).toBe(nonces.length);
    // Every byte value turns up: what is used is random, not a pool that was never filled (zeros) or filled once.
    expect(new Set(nonces.flatMap((nonce) => [...Buffer.from(nonce, "base64")])).size).toBe(256);
  });
});
