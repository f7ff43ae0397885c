import type { TypedDocumentNode } from "@urql/core";
import { print } from "graphql";
import i18next from "i18next";
import { afterEach, describe, expect, it, vi } from "vitest";
import de from "../../locales/de-DE/common.json";
import { createBrowserGraphQL } from "~/lib/graphql/browser-client";
import { RestorePlaceDocument } from "~/lib/graphql/later-documents.generated";
import { reportGraphQLError } from "~/lib/graphql/install-browser";
import { toastStore } from "~/lib/toast/toast-store";
import { startTestApi, type TestApi } from "../support/api-server";
import { untilCountingMinuteHasLeft } from "../support/counting-minute";
import { TestRequestLimitsLogOutDocument as LOG_OUT, TestRequestLimitsTypenameDocument as TYPENAME } from "../support/documents.generated";
import { wsClient } from "../support/subscriber";

type Answer = { status: number; retryAfter: string | null; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> };

/**
 * A POST to /graphql of a typed document without variables (request-limits.graphql), from `address` (loopback is a
 * trusted proxy in the test server); posted here rather than through `gql` to read the answer's Retry-After header.
 */
async function post(api: TestApi, document: TypedDocumentNode<unknown, Record<string, never>>, address = "198.51.100.7"): Promise<Answer> {
  const response = await fetch(api.url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": address },
    body: JSON.stringify({ query: print(document) }),
  });
  const body = (await response.json()) as Pick<Answer, "errors">;
  return { status: response.status, retryAfter: response.headers.get("retry-after"), ...body };
}

let api: TestApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

describe("the general request limits per client address", () => {
  it("over the request limit, /graphql answers 429 with Retry-After and RATE_LIMITED; other addresses go on", async () => {
    api = await startTestApi({ requestLimits: { requestsPerMinute: 5, mutationsPerMinute: 0 } });
    await untilCountingMinuteHasLeft();
    for (let i = 0; i < 5; i++) expect((await post(api, TYPENAME)).status).toBe(200);
    const refused = await post(api, TYPENAME);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(120);
    expect(refused.errors?.[0]?.extensions).toEqual({ code: "RATE_LIMITED", retryAfterSeconds: Number(refused.retryAfter) });
    expect(refused.errors?.[0]?.message).toBe(`Too many requests; try again in ${refused.retryAfter} seconds`);
    expect((await post(api, TYPENAME, "203.0.113.9")).status).toBe(200);
  }, 120_000);

  it("mutations have a stricter limit of their own, over HTTP and over WebSocket; queries still go", async () => {
    api = await startTestApi({ requestLimits: { requestsPerMinute: 100, mutationsPerMinute: 2 } });
    await untilCountingMinuteHasLeft();
    for (let i = 0; i < 2; i++) {
      const answer = await post(api, LOG_OUT);
      expect(answer.errors?.map((error) => error.extensions?.code) ?? []).not.toContain("RATE_LIMITED");
    }
    const refused = await post(api, LOG_OUT);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(refused.errors?.[0]?.extensions).toEqual({ code: "RATE_LIMITED", retryAfterSeconds: Number(refused.retryAfter) });
    const query = await post(api, TYPENAME);
    expect(query.status).toBe(200);

    // The same address over a WebSocket: the operation gets the error alone (no HTTP status to set).
    const client = wsClient(api.url, null, { headers: { "x-forwarded-for": "198.51.100.7" } });
    try {
      const errors = await new Promise<unknown>((resolve, reject) => {
        client.subscribe({ query: print(LOG_OUT) }, { next: (result) => resolve(result.errors), error: reject, complete: () => {} });
      });
      expect(errors).toEqual([
        expect.objectContaining({ extensions: { code: "RATE_LIMITED", retryAfterSeconds: expect.any(Number) as number } }),
      ]);
    } finally {
      await client.dispose();
    }
  }, 120_000);

  it("a refused mutation becomes a toast in the person's language", async () => {
    api = await startTestApi({ requestLimits: { requestsPerMinute: 100, mutationsPerMinute: 1 } });
    await untilCountingMinuteHasLeft();
    // The browser's client sends from loopback, the test server's own address for it.
    await post(api, LOG_OUT, "127.0.0.1");
    await i18next.init({ lng: "de-DE", resources: { "de-DE": { common: de } }, defaultNS: "common", initAsync: false });
    const warned = vi.spyOn(console, "warn").mockImplementation(() => {});
    const client = createBrowserGraphQL({ url: api.url, onError: reportGraphQLError }).current();
    const result = await client.mutation(RestorePlaceDocument, { id: "00000000-0000-0000-0000-000000000000" }).toPromise();
    expect(result.error?.graphQLErrors[0]?.extensions.code).toBe("RATE_LIMITED");
    const toast = toastStore.all().find((shown) => shown.id === "graphql-error:errors.rateLimited");
    expect(toast?.title).toBe(de.errors.rateLimited);
    expect(warned).toHaveBeenCalledWith(expect.stringContaining("RestorePlace failed: "));
  }, 120_000);
});
