import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import de from "../../locales/de-DE/common.json";
import { createRequestLimits } from "~/api/request-limits.server";
import { refusedOverLimit } from "~/server/request-limit.server";
import { pageRefusal } from "~/server/request-limit-page.server";

const MINUTE = 60_000;

/** The limits alone (no database): one instance, on a clock the test moves. */
function limitsAt(start: number, requestsPerMinute: number) {
  let time = start;
  const limits = createRequestLimits({ requestsPerMinute, mutationsPerMinute: 0 }, { db: null, now: () => time });
  return { limits, set: (at: number) => (time = at) };
}

describe("the general request limits (one instance)", () => {
  it("admits the limit within a minute, then refuses with the seconds until one more may go", () => {
    const start = 1000 * MINUTE;
    const { limits, set } = limitsAt(start, 10);
    for (let i = 0; i < 10; i++) expect(limits.take("requests", "a").limited).toBe(false);
    const refused = limits.take("requests", "a");
    expect(refused.limited).toBe(true);
    const seconds = refused.limited ? refused.retryAfterSeconds : 0;
    // A full minute's count still weighs in at the start of the next one: no burst at the boundary.
    set(start + MINUTE);
    expect(limits.take("requests", "a").limited).toBe(true);
    // Retry-After is honest: a second earlier is still too soon, at it one more goes.
    set(start + seconds * 1000 - 1000);
    expect(limits.take("requests", "a").limited).toBe(true);
    set(start + seconds * 1000);
    expect(limits.take("requests", "a").limited).toBe(false);
    expect(limits.take("requests", "b").limited).toBe(false);
  });

  it("lets the minute before fade: half a minute on, half of its count is left", () => {
    const start = 2000 * MINUTE;
    const { limits, set } = limitsAt(start, 10);
    for (let i = 0; i < 10; i++) limits.take("requests", "a");
    set(start + MINUTE + MINUTE / 2);
    let admitted = 0;
    while (!limits.take("requests", "a").limited) admitted++;
    expect(admitted).toBe(5);
  });

  it("0 turns a limit off", () => {
    const { limits } = limitsAt(0, 0);
    for (let i = 0; i < 1000; i++) expect(limits.take("requests", "a").limited).toBe(false);
  });
});

describe("a refused page", () => {
  it("is a 429 with Retry-After, in the person's language", () => {
    const { limits } = limitsAt(3000 * MINUTE, 1);
    const headers = new Map<string, string>();
    let body = "";
    const res = {
      statusCode: 200,
      setHeader: (name: string, value: string) => headers.set(name.toLowerCase(), value),
      end: (text: string) => (body = text),
    } as unknown as ServerResponse;
    const req = { headers: { "accept-language": "de-CH,de;q=0.9,en;q=0.5" } } as IncomingMessage;
    expect(refusedOverLimit(limits, "requests", "a", req, res, pageRefusal)).toBe(false);
    expect(refusedOverLimit(limits, "requests", "a", req, res, pageRefusal)).toBe(true);
    expect(res.statusCode).toBe(429);
    expect(Number(headers.get("retry-after"))).toBeGreaterThan(0);
    expect(body).toContain('lang="de-DE"');
    expect(body).toContain(de.errors.rateLimited);
  });
});
