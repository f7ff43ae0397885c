import { afterEach, describe, expect, it, vi } from "vitest";
import { LAST_SEEN_INTERVAL_MS } from "~/api/auth/last-seen.server";
import { LOGIN_LIMITS } from "~/api/auth/login-guard.server";
import { codes, startTestApi, testApis, type GraphQLResponse, type TestApi } from "../support/api-server";
import {
  TestSecurityChangePasswordDocument as CHANGE_PASSWORD,
  TestSecurityEndOthersDocument as END_OTHERS,
  TestSecurityEndSessionDocument as END_SESSION,
  TestSecurityLogInDocument as LOG_IN,
  TestSecurityMeDocument as ME,
  TestSecuritySessionsDocument as SESSIONS,
} from "../support/documents.generated";
import { messageSubscriber } from "../support/subscriber";

const PASSWORD = "a sturdy passphrase";
const NEW_PASSWORD = "another sturdy passphrase";
const FIREFOX_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const CHROME_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

const api = testApis();

/** A fresh account and its first session's token (the sign-up's), with its email. */
async function account(t: TestApi, tag: string) {
  const email = `${tag}-${Math.random().toString(36).slice(2)}@example.com`;
  const token = await t.signUp(email, PASSWORD);
  return { email, token };
}

/** Another session of the account, logged in as a browser with `userAgent` would. */
async function logIn(t: TestApi, email: string, userAgent?: string, password = PASSWORD): Promise<string> {
  const result = await t.gql(LOG_IN, { email, password }, userAgent ? { headers: { "user-agent": userAgent } } : {});
  if (!result.data) throw new Error(`log-in failed: ${JSON.stringify(result.errors)}`);
  return result.data.logIn.token;
}

const signedIn = async (t: TestApi, token: string) => (await t.gql(ME, {}, { token })).data?.me != null;

const issue = (response: GraphQLResponse) => {
  const [error] = response.errors ?? [];
  return { code: error?.extensions?.code, field: error?.extensions?.field, reason: error?.extensions?.reason };
};

describe("changing the password", () => {
  it("needs the current one; ends every other session (their sockets too) and keeps this one signed in", async () => {
    const t = await api();
    const { email, token } = await account(t, "change");
    const phone = await logIn(t, email, SAFARI_IPHONE);
    const laptop = await logIn(t, email, FIREFOX_LINUX);
    const onPhone = messageSubscriber(t.url, phone);
    await vi.waitFor(() => expect(t.api.services.sessionEnds.watched()).toHaveLength(1));

    const changed = await t.gql(CHANGE_PASSWORD, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD }, { token });
    expect(changed.errors).toBeUndefined();
    expect(changed.data).toEqual({ changePassword: 2 });

    expect(await signedIn(t, token)).toBe(true);
    expect(await signedIn(t, phone)).toBe(false);
    expect(await signedIn(t, laptop)).toBe(false);
    await vi.waitFor(() => expect(onPhone.seen.closeCode).toBe(4401));
    await onPhone.dispose();

    // The new password opens the account; the old one no longer does.
    expect(await signedIn(t, await logIn(t, email, undefined, NEW_PASSWORD))).toBe(true);
    expect(codes(await t.gql(LOG_IN, { email, password: PASSWORD }))).toEqual(["UNAUTHENTICATED"]);
  });

  it("with a wrong current password, or a new one against the rules, changes nothing and ends no session", async () => {
    const t = await api();
    const { email, token } = await account(t, "wrong");
    const other = await logIn(t, email);
    const hashBefore = await t.api.services.db
      .selectFrom("users")
      .select("password_hash")
      .where("email", "=", email)
      .executeTakeFirstOrThrow();

    const wrong = await t.gql(CHANGE_PASSWORD, { currentPassword: "not the password", newPassword: NEW_PASSWORD }, { token });
    expect(issue(wrong)).toEqual({ code: "BAD_USER_INPUT", field: "currentPassword", reason: "PASSWORD_WRONG" });
    expect(wrong.data).toBeNull();
    for (const [newPassword, reason] of [
      ["short", "PASSWORD_TOO_SHORT"],
      ["password", "PASSWORD_TOO_COMMON"],
      [email, "PASSWORD_LIKE_EMAIL"],
    ] as const) {
      const refused = await t.gql(CHANGE_PASSWORD, { currentPassword: PASSWORD, newPassword }, { token });
      expect(issue(refused)).toEqual({ code: "BAD_USER_INPUT", field: "newPassword", reason });
    }
    expect(issue(await t.gql(CHANGE_PASSWORD, { currentPassword: "", newPassword: NEW_PASSWORD }, { token }))).toEqual({
      code: "BAD_USER_INPUT",
      field: "currentPassword",
      reason: "PASSWORD_REQUIRED",
    });

    const hashAfter = await t.api.services.db
      .selectFrom("users")
      .select("password_hash")
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    expect(hashAfter).toEqual(hashBefore);
    expect([await signedIn(t, token), await signedIn(t, other)]).toEqual([true, true]);
    expect(await signedIn(t, await logIn(t, email))).toBe(true);
    // Signed out, there is nothing to change.
    expect(codes(await t.gql(CHANGE_PASSWORD, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD }))).toEqual(["UNAUTHENTICATED"]);
  });

  it("counts wrong current passwords against log-in's limits for the account from the address", async () => {
    const t = await api();
    const { token } = await account(t, "guess");
    const from = { token, headers: { "x-forwarded-for": "198.51.100.23" } };
    const answers: unknown[] = [];
    for (let attempt = 0; attempt <= LOGIN_LIMITS.perAccountFromAddress; attempt++) {
      answers.push(issue(await t.gql(CHANGE_PASSWORD, { currentPassword: `guess ${attempt}`, newPassword: NEW_PASSWORD }, from)).code);
    }
    expect(answers).toEqual([...Array<string>(LOGIN_LIMITS.perAccountFromAddress).fill("BAD_USER_INPUT"), "RATE_LIMITED"]);
    // Even the right one waits now, from that address.
    expect(codes(await t.gql(CHANGE_PASSWORD, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD }, from))).toEqual(["RATE_LIMITED"]);
  });
});

describe("the sessions list", () => {
  it("names each session's browser, system and device, marks the current one, newest use first", async () => {
    const t = await api();
    const { email } = await account(t, "list");
    const phone = await logIn(t, email, SAFARI_IPHONE);
    const desk = await logIn(t, email, CHROME_WINDOWS);
    const laptop = await logIn(t, email, FIREFOX_LINUX);

    const listed = (await t.gql(SESSIONS, {}, { token: laptop })).data!.me!.sessions;
    // The sign-up's session (no User-Agent: this test's fetch sends Node's) and the three log-ins.
    expect(listed).toHaveLength(4);
    const byBrowser = Object.fromEntries(listed.map((session) => [session.browser ?? "none", session]));
    expect(byBrowser["Firefox 128"]).toMatchObject({ os: "Linux", deviceType: "DESKTOP", current: true });
    expect(byBrowser["Safari 17"]).toMatchObject({ os: "iOS 17", deviceType: "MOBILE", current: false });
    expect(byBrowser["Chrome 126"]).toMatchObject({ os: "Windows 10", deviceType: "DESKTOP", current: false });
    expect(listed.filter((session) => session.current)).toHaveLength(1);
    // The one asking has just been used: it comes first.
    expect(listed[0]!.current).toBe(true);
    for (const session of listed) {
      expect(Date.parse(session.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(session.createdAt));
      expect(Date.parse(session.expiresAt)).toBeGreaterThan(Date.parse(session.createdAt));
    }
    // Each session sees itself as the current one.
    const fromPhone = (await t.gql(SESSIONS, {}, { token: phone })).data!.me!.sessions;
    expect(fromPhone.find((session) => session.current)!.browser).toBe("Safari 17");
    expect(fromPhone.map((session) => session.id).sort()).toEqual(listed.map((session) => session.id).sort());
    expect(await signedIn(t, desk)).toBe(true);
  });

  it("lists and ends only one's own sessions: another account's id is not found, and stays signed in", async () => {
    const t = await api();
    const ada = await account(t, "ada");
    const bob = await account(t, "bob");
    const adaPhone = await logIn(t, ada.email, SAFARI_IPHONE);
    const adaIds = (await t.gql(SESSIONS, {}, { token: ada.token })).data!.me!.sessions.map((session) => session.id);
    const bobIds = (await t.gql(SESSIONS, {}, { token: bob.token })).data!.me!.sessions.map((session) => session.id);
    expect(adaIds).toHaveLength(2);
    expect(bobIds).toHaveLength(1);
    expect(adaIds.filter((id) => bobIds.includes(id))).toEqual([]);

    for (const id of adaIds) expect(codes(await t.gql(END_SESSION, { id }, { token: bob.token }))).toEqual(["NOT_FOUND"]);
    expect(codes(await t.gql(END_SESSION, { id: "no-such-session" }, { token: bob.token }))).toEqual(["NOT_FOUND"]);
    expect(codes(await t.gql(END_SESSION, { id: adaIds[0]! }))).toEqual(["UNAUTHENTICATED"]);
    expect([await signedIn(t, ada.token), await signedIn(t, adaPhone)]).toEqual([true, true]);

    // Ada ends her phone's session from her laptop: its socket closes, the laptop stays.
    const onPhone = messageSubscriber(t.url, adaPhone);
    await vi.waitFor(() => expect(t.api.services.sessionEnds.watched()).toHaveLength(1));
    const phoneId = (await t.gql(SESSIONS, {}, { token: adaPhone })).data!.me!.sessions.find((session) => session.current)!.id;
    expect((await t.gql(END_SESSION, { id: phoneId }, { token: ada.token })).data).toEqual({ endSession: true });
    await vi.waitFor(() => expect(onPhone.seen.closeCode).toBe(4401));
    await onPhone.dispose();
    expect([await signedIn(t, ada.token), await signedIn(t, adaPhone), await signedIn(t, bob.token)]).toEqual([true, false, true]);
    expect((await t.gql(SESSIONS, {}, { token: ada.token })).data!.me!.sessions).toHaveLength(1);
    // Ended already: nothing to end.
    expect(codes(await t.gql(END_SESSION, { id: phoneId }, { token: ada.token }))).toEqual(["NOT_FOUND"]);
  });

  it("logs out everywhere else: every other session of the account ends, no other account's", async () => {
    const t = await api();
    const ada = await account(t, "everywhere");
    const bob = await account(t, "bystander");
    const others = [await logIn(t, ada.email, SAFARI_IPHONE), await logIn(t, ada.email, CHROME_WINDOWS)];
    const sockets = others.map((token) => messageSubscriber(t.url, token));
    await vi.waitFor(() => expect(t.api.services.sessionEnds.watched()).toHaveLength(2));

    expect((await t.gql(END_OTHERS, {}, { token: ada.token })).data).toEqual({ endOtherSessions: 2 });
    await vi.waitFor(() => expect(sockets.map((socket) => socket.seen.closeCode)).toEqual([4401, 4401]));
    await Promise.all(sockets.map((socket) => socket.dispose()));
    expect(await Promise.all([ada.token, ...others, bob.token].map((token) => signedIn(t, token)))).toEqual([true, false, false, true]);
    expect((await t.gql(END_OTHERS, {}, { token: ada.token })).data).toEqual({ endOtherSessions: 0 });
  });

  it("on two instances: a session ended on one has its socket on the other closed", async () => {
    const a = await api();
    const b = await api({ dataDir: a.dataDir, databaseUrl: a.databaseUrl, fake: a.fake });
    const { email, token } = await account(a, "instances");
    const phone = await logIn(b, email, SAFARI_IPHONE);
    const onB = messageSubscriber(b.url, phone);
    await vi.waitFor(() => expect(b.api.services.sessionEnds.watched()).toHaveLength(1));
    expect((await a.gql(END_OTHERS, {}, { token })).data).toEqual({ endOtherSessions: 1 });
    await vi.waitFor(() => expect(onB.seen.closeCode).toBe(4401), { timeout: 5_000 });
    await onB.dispose();
  });
});

describe("last seen", () => {
  const open: TestApi[] = [];
  afterEach(async () => {
    for (const t of open.splice(0)) await t.close();
  });

  it("is written at most once per interval per session, off the request's path, and read back as lastSeenAt", async () => {
    let now = Date.parse("2031-01-15T10:00:00Z");
    const writes: string[] = [];
    const t = await startTestApi({
      now: () => new Date(now),
      onStatement: (sql) => void (/^\s*insert into "session_activity"/i.test(sql) && writes.push(sql)),
    });
    open.push(t);
    const { email } = await account(t, "seen");
    const token = await logIn(t, email, FIREFOX_LINUX);
    const lastSeen = async () => (await t.gql(SESSIONS, {}, { token })).data!.me!.sessions.find((session) => session.current)!.lastSeenAt;

    for (let request = 0; request < 5; request++) await signedIn(t, token);
    await t.api.services.lastSeen.settled();
    expect(writes).toHaveLength(1);
    expect(await lastSeen()).toBe("2031-01-15T10:00:00.000Z");

    now += LAST_SEEN_INTERVAL_MS - 1_000;
    await signedIn(t, token);
    await t.api.services.lastSeen.settled();
    expect(writes).toHaveLength(1);

    now += 2_000;
    await signedIn(t, token);
    await t.api.services.lastSeen.settled();
    expect(writes).toHaveLength(2);
    expect(await lastSeen()).toBe(new Date(now).toISOString());
  });
});
