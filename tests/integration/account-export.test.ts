import { createECDH, randomBytes } from "node:crypto";
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { graphqlFetchContext } from "~/lib/graphql/executor-context";
import { accountExportResponse, EXPORT_FORMAT, EXPORT_VERSION } from "~/server/account-export.server";
import { inProcessGraphQLFetch } from "~/server/graphql-endpoint.server";
import { SESSION_COOKIE } from "~/shared/session-cookie";
import { testApis, type TestApi } from "../support/api-server";
import {
  TestPlacesAddDocument as ADD_PLACE,
  TestSecurityMeDocument as ME,
  TestSecuritySaveBriefingDocument as SAVE_BRIEFING,
  TestSecuritySavePushDocument as SAVE_PUSH,
  TestSecuritySaveRuleDocument as SAVE_RULE,
  TestSecuritySendBriefingNowDocument as SEND_BRIEFING_NOW,
  TestSecurityEndOthersDocument as END_OTHERS,
  TestSecurityLogInDocument as LOG_IN,
} from "../support/documents.generated";

const api = testApis();
const PASSWORD = "a sturdy passphrase";
const MESSAGES = 5_000;

/** The export route's answer for a request with these headers, on the API in this process; `calls` counts its queries. */
function exporter(t: TestApi) {
  const calls = { count: 0 };
  const fetchInProcess = inProcessGraphQLFetch(t.api.yoga.fetch, "203.0.113.9");
  const context = new RouterContextProvider();
  context.set(graphqlFetchContext, ((input, init) => {
    calls.count++;
    return fetchInProcess(input, init);
  }) as typeof fetch);
  const say = (problem: string) => `problem: ${problem}`;
  const answer = (headers: Record<string, string>) =>
    accountExportResponse(new Request("http://localhost/resources/account-export", { headers }), context, say);
  const as = (token: string, headers: Record<string, string> = {}) => answer({ Cookie: `${SESSION_COOKIE}=${token}`, ...headers });
  return { calls, answer, as };
}

async function accountWithData(t: TestApi, email: string) {
  const token = await t.signUp(email, PASSWORD);
  const userId = (await t.gql(ME, {}, { token })).data!.me!.id;
  const place = (await t.gql(ADD_PLACE, { latitude: 52.52, longitude: 13.41, label: "Home" }, { token })).data!.addPlace.id;
  const rule = (await t.gql(SAVE_RULE, { placeId: place }, { token })).data!.saveAlertRule.id;
  const briefing = (await t.gql(SAVE_BRIEFING, { placeIds: [place] }, { token })).data!.saveBriefing.id;
  const keys = createECDH("prime256v1");
  keys.generateKeys();
  const push = {
    endpoint: `http://127.0.0.1:9/push/${randomBytes(4).toString("hex")}`,
    p256dh: keys.getPublicKey().toString("base64url"),
    auth: randomBytes(16).toString("base64url"),
  };
  expect((await t.gql(SAVE_PUSH, push, { token })).data).toEqual({ savePushSubscription: true });
  return { token, userId, place, rule, briefing, push };
}

/** Reads a stream to its end, chunk by chunk; `each` sees every chunk's size as it is taken. */
async function readAll(body: ReadableStream<Uint8Array>, each: (size: number) => void = () => {}): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    each(value.length);
    text += decoder.decode(value, { stream: true });
  }
}

describe("the account export", () => {
  it("is one JSON download of everything the account holds, in the documented shape, push keys left out", async () => {
    const t = await api();
    const ada = await accountWithData(t, "export@example.com");
    const sent = (await t.gql(SEND_BRIEFING_NOW, { id: ada.briefing }, { token: ada.token })).data!.sendBriefingNow.id;
    const { as } = exporter(t);

    const response = await as(ada.token, { "sec-fetch-site": "same-origin" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="weatherbot-export-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const text = await readAll(response.body!);
    expect(text).not.toContain(ada.push.p256dh);
    expect(text).not.toContain(ada.push.auth);
    const file = JSON.parse(text);
    expect(Object.keys(file)).toEqual([
      "format",
      "version",
      "exportedAt",
      "account",
      "settings",
      "places",
      "alertRules",
      "briefings",
      "pushSubscriptions",
      "sessions",
      "messages",
    ]);
    expect(file).toMatchObject({
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      account: { id: ada.userId, email: "export@example.com" },
      settings: { language: "EN_US", timeZone: "UTC", pushEnabled: expect.any(Boolean) },
      places: [{ id: ada.place, label: "Home", latitude: 52.52, longitude: 13.41, position: 0 }],
      alertRules: [{ id: ada.rule, name: "Gusts", metric: "WIND_GUSTS", threshold: 60, place: { id: ada.place } }],
      briefings: [{ id: ada.briefing, name: "Morning", places: [{ id: ada.place }], days: ["MON", "TUE"] }],
      pushSubscriptions: [{ endpoint: ada.push.endpoint, createdAt: expect.any(String) }],
      sessions: [{ current: true }],
      messages: [{ id: sent, kind: "BRIEFING", briefing: { id: ada.briefing }, content: { kind: "BRIEFING", briefingName: "Morning" } }],
    });
    expect(Object.keys(file.pushSubscriptions[0]).sort()).toEqual(["createdAt", "endpoint"]);
    expect(Date.parse(file.exportedAt)).not.toBeNaN();
  });

  it(`streams ${MESSAGES.toLocaleString("en")} messages a page at a time: one page in memory, a query per page taken`, async () => {
    const t = await api();
    const ada = await accountWithData(t, "many@example.com");
    for (let start = 0; start < MESSAGES; start += 500) {
      await t.api.services.inbox.writeMany(
        Array.from({ length: 500 }, (_, index) => ({
          userId: ada.userId,
          kind: "SYSTEM" as const,
          title: `Message ${start + index}`,
          body: "x".repeat(200),
          dedupeKey: `many:${start + index}`,
        })),
      );
    }
    const { as, calls } = exporter(t);
    const started = performance.now();
    const response = await as(ada.token);
    expect(response.status).toBe(200);
    // The account, and the first page before the answer starts.
    expect(calls.count).toBe(2);

    let taken = 0;
    let largest = 0;
    const text = await readAll(response.body!, (size) => {
      taken++;
      largest = Math.max(largest, size);
      // Never more than one page asked for ahead of what the reader has taken.
      expect(calls.count).toBeLessThanOrEqual(taken + 2);
    });
    const elapsed = performance.now() - started;
    const file = JSON.parse(text) as { messages: Array<{ id: string; title: string }> };
    expect(file.messages).toHaveLength(MESSAGES);
    expect(new Set(file.messages.map((message) => message.id)).size).toBe(MESSAGES);
    // Newest first, as the inbox.
    expect(file.messages[0]!.title).toBe(`Message ${MESSAGES - 1}`);
    expect(file.messages.at(-1)!.title).toBe("Message 0");
    // A query for the account, one per page of 100.
    expect(calls.count).toBe(1 + MESSAGES / 100);
    // No chunk is more than a page (100 messages of about 400 characters each).
    expect(largest).toBeLessThan(100 * 1_000);
    expect(elapsed).toBeLessThan(60_000);
  });

  it("is only ever the session's own account's: another's cookie gets theirs, none or an ended one nothing", async () => {
    const t = await api();
    const ada = await accountWithData(t, "ada-export@example.com");
    const bob = await accountWithData(t, "bob-export@example.com");
    const { as, answer } = exporter(t);

    const bobs = JSON.parse(await readAll((await as(bob.token)).body!));
    expect(bobs.account).toEqual({ id: bob.userId, email: "bob-export@example.com", createdAt: expect.any(String) });
    expect(JSON.stringify(bobs)).not.toContain(ada.userId);
    expect(JSON.stringify(bobs)).not.toContain(ada.place);

    const none = await answer({});
    expect([none.status, await none.text()]).toEqual([401, "problem: signedOut"]);
    expect(none.headers.get("content-disposition")).toBeNull();
    const second = (await t.gql(LOG_IN, { email: "ada-export@example.com", password: PASSWORD })).data!.logIn.token;
    await t.gql(END_OTHERS, {}, { token: second });
    expect((await as(ada.token)).status).toBe(401);
    // Started by another site: refused before anything is read.
    const crossSite = await as(second, { "sec-fetch-site": "cross-site" });
    expect([crossSite.status, await crossSite.text()]).toEqual([403, "problem: crossSite"]);
    expect((await as(second, { "sec-fetch-site": "none" })).status).toBe(200);
  });
});
