import { print } from "graphql";
import { afterEach, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "../../support/api-server";
import { TestRequestLimitsSharedTypenameDocument as TYPENAME } from "../../support/documents.generated";
import { untilCountingMinuteHasLeft } from "../../support/counting-minute";
import { plainKysely } from "../../support/test-database";

/** Two whole instances (each its own API, pool and counts) on one PostgreSQL database. */
const started: TestApi[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((api) => api.close()));
});

const ADDRESS = "198.51.100.23";
const LIMIT = 30;

/** A request of any kind (request-limits-shared.graphql's), from ADDRESS; posted here to read its status alone. */
async function status(api: TestApi): Promise<number> {
  const response = await fetch(api.url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": ADDRESS },
    body: JSON.stringify({ query: print(TYPENAME) }),
  });
  await response.arrayBuffer();
  return response.status;
}

describe("the general request limit across instances", () => {
  it("is shared: what one instance admitted counts on the other, within a sync's overshoot", async () => {
    const a = await startTestApi({ requestLimits: { requestsPerMinute: LIMIT, mutationsPerMinute: 0 } });
    started.push(a);
    const b = await startTestApi({ databaseUrl: a.databaseUrl, requestLimits: { requestsPerMinute: LIMIT, mutationsPerMinute: 0 } });
    started.push(b);

    await untilCountingMinuteHasLeft();
    for (let i = 0; i < LIMIT; i++) expect(await status(a)).toBe(200);
    expect(await status(a)).toBe(429);

    // Once A has added its count to the database (about once a second)...
    const db = plainKysely<{ request_counts: { rule: string; key: string; hits: number } }>(a.databaseUrl!);
    try {
      await expect
        .poll(
          async () =>
            (
              await db
                .selectFrom("request_counts")
                .select("hits")
                .where("rule", "=", "requests")
                .where("key", "=", ADDRESS)
                .executeTakeFirst()
            )?.hits ?? 0,
          { timeout: 30_000, interval: 50 },
        )
        .toBeGreaterThanOrEqual(LIMIT);
    } finally {
      await db.destroy();
    }
    // ...B, which has not seen the address yet, refuses it after at most the requests it let
    // through before its first sync (started at its first sight of the address): never a budget
    // of its own (alone, it would let all LIMIT through). How many it lets through meanwhile is a
    // matter of time, not of count: a loaded machine answered 16 of these before one sync.
    let admittedOnB = 0;
    for (;;) {
      const answer = await status(b);
      if (answer === 429) break;
      expect(answer).toBe(200);
      admittedOnB++;
      expect(admittedOnB).toBeLessThan(LIMIT);
    }
  }, 120_000);
});
