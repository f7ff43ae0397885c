import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { hashToken } from "~/api/auth/sessions.server";
import { MAIL_REQUEST_LIMITS } from "~/api/auth/mail-request-guard.server";
import { LogInDocument, SignUpDocument } from "~/lib/account-documents.generated";
import { startFakeSmtp, type FakeSmtp, type ReceivedMail } from "../fakes/smtp";
import { codes, testApis, type GraphQLResponse, type TestApi } from "../support/api-server";
import {
  TestMailAvailableDocument as MAIL_AVAILABLE,
  TestMailConfirmEmailChangeDocument as CONFIRM_CHANGE,
  TestMailRequestEmailChangeDocument as REQUEST_CHANGE,
  TestMailRequestResetDocument as REQUEST_RESET,
  TestMailResetPasswordDocument as RESET_PASSWORD,
  TestMailViewerDocument as VIEWER,
} from "../support/documents.generated";
import { messageSubscriber } from "../support/subscriber";

/*
 * The account's mail against a real SMTP server on loopback: a reset link that works once, for 30
 * minutes, and ends every session; the same answer for an address without an account (and no mail);
 * an email change confirmed by a link to the new address, the old one working until then.
 */
const PASSWORD = "a sturdy passphrase";
const NEW_PASSWORD = "another sturdy passphrase";

let smtp: FakeSmtp;
beforeAll(async () => {
  smtp = await startFakeSmtp();
});
afterAll(() => smtp.close());

const apis = testApis();
let clock = Date.now();
afterEach(() => {
  clock = Date.now();
});
/** An API with mail, on a clock the test can move (the links' lifetimes are on the API's clock). */
const mailApi = () => apis({ mail: { smtpUrl: smtp.url }, now: () => new Date(clock) });

let counter = 0;
const address = (name: string) => `${name}-${++counter}-${Date.now()}@example.com`;

async function signUp(test: TestApi, email: string, language: "EN_US" | "DE_DE" = "EN_US") {
  const result = await test.gql(SignUpDocument, { email, password: PASSWORD, language });
  return result.data!.signUp.token;
}

async function logIn(test: TestApi, email: string, password: string) {
  return test.gql(LogInDocument, { email, password });
}

const mailTo = (to: string) => smtp.waitForMail((mail) => mail.to.includes(to));

/** The token of the link in a mail's text (and the same link in its HTML). */
function linkToken(mail: ReceivedMail, path: string): string {
  const match = new RegExp(`http://weatherbot\\.test/${path}\\?token=([A-Za-z0-9_-]+)`).exec(mail.text);
  expect(match, `a ${path} link in:\n${mail.text}`).not.toBeNull();
  expect(mail.html).toContain(`http://weatherbot.test/${path}?token=${match![1]}`);
  return match![1]!;
}

/** What a refusal says, compactly: its code, and its field and reason. */
const refusal = (response: GraphQLResponse) => {
  const error = response.errors?.[0];
  return { code: error?.extensions?.code, field: error?.extensions?.field, reason: error?.extensions?.reason };
};

describe("a forgotten password", () => {
  it("mails a link to the account's address, in its language, that sets a new password once and ends every session", async () => {
    const test = await mailApi();
    const email = address("reset");
    const first = await signUp(test, email, "DE_DE");
    const second = (await logIn(test, email, PASSWORD)).data!.logIn.token;
    const listening = messageSubscriber(test.url, second);
    await vi.waitFor(async () => {
      const { count } = await test.api.services.db
        .selectFrom("sessions")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .executeTakeFirstOrThrow();
      expect(Number(count)).toBe(2);
    });

    // Typed as people type it: the address is the account's all the same.
    expect((await test.gql(REQUEST_RESET, { email: `  ${email.toUpperCase()} ` })).data).toEqual({ requestPasswordReset: true });
    const mail = await mailTo(email);
    expect(mail.subject).toBe("Dein Weatherbot-Passwort zurücksetzen");
    expect(mail.headers["content-type"]).toMatch(/^multipart\/alternative/);
    expect(mail.html).toContain('lang="de-DE"');
    const token = linkToken(mail, "reset-password");

    // Only the token's hash is kept; the outbox has forgotten the mail once it was sent.
    await test.api.services.mail.flush();
    const tokens = await test.api.services.db.selectFrom("account_tokens").selectAll().execute();
    expect(tokens.map((row) => row.token_hash)).toEqual([hashToken(token)]);
    expect(JSON.stringify(tokens)).not.toContain(token);
    const outbox = await test.api.services.db.selectFrom("mail_outbox").selectAll().execute();
    expect(outbox.map((row) => row.state)).toEqual(["SENT"]);
    expect(JSON.stringify(outbox)).not.toContain(token);

    expect((await test.gql(RESET_PASSWORD, { token, password: NEW_PASSWORD })).data).toEqual({ resetPassword: true });
    // Every session of the account has ended, and the one listening was told at once.
    expect((await test.gql(VIEWER, {}, { token: first })).data).toEqual({ me: null });
    expect((await test.gql(VIEWER, {}, { token: second })).data).toEqual({ me: null });
    await vi.waitFor(() => expect(listening.seen.closeCode).toBe(4401));
    await listening.dispose();
    expect(codes(await logIn(test, email, PASSWORD))).toEqual(["UNAUTHENTICATED"]);
    expect((await logIn(test, email, NEW_PASSWORD)).data?.logIn.token).toBeTruthy();

    // Used once: the same link again is refused, and the password stays the one it set.
    const again = await test.gql(RESET_PASSWORD, { token, password: "a third sturdy passphrase" });
    expect(refusal(again)).toEqual({ code: "BAD_USER_INPUT", field: "token", reason: "TOKEN_USED" });
    expect(again.errors![0]!.message).toBe("This link was used already; ask for a new one");
    expect(codes(await logIn(test, email, "a third sturdy passphrase"))).toEqual(["UNAUTHENTICATED"]);
    expect((await logIn(test, email, NEW_PASSWORD)).data?.logIn.token).toBeTruthy();
  });

  it("answers an address without an account exactly as one with, and sends it nothing", async () => {
    const test = await mailApi();
    const known = address("known");
    await signUp(test, known);
    const unknown = address("nobody");
    const answers = [await test.gql(REQUEST_RESET, { email: known }), await test.gql(REQUEST_RESET, { email: unknown })];
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[1]).toEqual({ status: 200, data: { requestPasswordReset: true } });
    await mailTo(known);
    await test.api.services.mail.flush();
    expect(smtp.mails.filter((mail) => mail.to.includes(unknown))).toEqual([]);
    expect(await test.api.services.db.selectFrom("mail_outbox").select("kind").execute()).toEqual([{ kind: "PASSWORD_RESET" }]);
  });

  it("refuses an expired link, a made-up one and a weak password, and changes nothing", async () => {
    const test = await mailApi();
    const email = address("expired");
    const session = await signUp(test, email);
    await test.gql(REQUEST_RESET, { email });
    const token = linkToken(await mailTo(email), "reset-password");

    const weak = await test.gql(RESET_PASSWORD, { token, password: "short" });
    expect(refusal(weak)).toEqual({ code: "BAD_USER_INPUT", field: "password", reason: "PASSWORD_TOO_SHORT" });
    const likeEmail = await test.gql(RESET_PASSWORD, { token, password: email.toUpperCase() });
    expect(refusal(likeEmail)).toMatchObject({ field: "password", reason: "PASSWORD_LIKE_EMAIL" });
    const madeUp = await test.gql(RESET_PASSWORD, { token: "not-a-token-anyone-sent", password: NEW_PASSWORD });
    expect(refusal(madeUp)).toEqual({ code: "BAD_USER_INPUT", field: "token", reason: "TOKEN_INVALID" });

    clock += 31 * 60_000;
    const late = await test.gql(RESET_PASSWORD, { token, password: NEW_PASSWORD });
    expect(refusal(late)).toEqual({ code: "BAD_USER_INPUT", field: "token", reason: "TOKEN_EXPIRED" });
    expect(late.errors![0]!.message).toBe("This link has expired; ask for a new one");
    // Nothing changed: the old password, the session, the link unused.
    expect((await logIn(test, email, PASSWORD)).data?.logIn.token).toBeTruthy();
    expect((await test.gql(VIEWER, {}, { token: session })).data?.me?.email).toBe(email);
    const [row] = await test.api.services.db.selectFrom("account_tokens").selectAll().execute();
    expect(row!.used_at).toBeNull();
  });

  it("lets only the newest link work", async () => {
    const test = await mailApi();
    const email = address("newest");
    await signUp(test, email);
    await test.gql(REQUEST_RESET, { email });
    const older = linkToken(await mailTo(email), "reset-password");
    await test.gql(REQUEST_RESET, { email });
    const newer = linkToken(await smtp.waitForMail((mail) => mail.to.includes(email) && !mail.text.includes(older)), "reset-password");
    expect(refusal(await test.gql(RESET_PASSWORD, { token: older, password: NEW_PASSWORD }))).toMatchObject({ reason: "TOKEN_USED" });
    expect((await test.gql(RESET_PASSWORD, { token: newer, password: NEW_PASSWORD })).data).toEqual({ resetPassword: true });
  });

  it("limits requests per address asked for, whether it has an account or not, and per client address", async () => {
    const test = await mailApi();
    const known = address("limited");
    await signUp(test, known);
    const unknown = address("limited-nobody");
    for (let i = 0; i < MAIL_REQUEST_LIMITS.perAccount; i++) {
      expect((await test.gql(REQUEST_RESET, { email: known })).data).toEqual({ requestPasswordReset: true });
      expect((await test.gql(REQUEST_RESET, { email: unknown })).data).toEqual({ requestPasswordReset: true });
    }
    const over = [await test.gql(REQUEST_RESET, { email: known }), await test.gql(REQUEST_RESET, { email: unknown })];
    expect(over.map(codes)).toEqual([["RATE_LIMITED"], ["RATE_LIMITED"]]);
    expect(over[0]!.errors![0]!.extensions!.retryAfterSeconds).toBeGreaterThan(0);
    // Ten requests so far from this client address: ten more for other addresses, then the address is at its limit.
    for (let i = 2 * MAIL_REQUEST_LIMITS.perAccount; i < MAIL_REQUEST_LIMITS.perAddress; i++) {
      expect(codes(await test.gql(REQUEST_RESET, { email: address("spread") }))).toEqual([]);
    }
    expect(codes(await test.gql(REQUEST_RESET, { email: address("spread") }))).toEqual(["RATE_LIMITED"]);
    await test.api.services.mail.flush();
    expect(smtp.mails.filter((mail) => mail.to.includes(known))).toHaveLength(MAIL_REQUEST_LIMITS.perAccount);
  });

  it("is refused plainly, and offered nowhere, where the server sends no mail", async () => {
    const test = await apis();
    expect((await test.gql(MAIL_AVAILABLE)).data).toEqual({ mailAvailable: false });
    const email = address("no-mail");
    await signUp(test, email);
    const refused = await test.gql(REQUEST_RESET, { email });
    expect(refusal(refused)).toEqual({ code: "FORBIDDEN", field: undefined, reason: "MAIL_UNAVAILABLE" });
    expect(refused.errors![0]!.message).toBe("This server sends no mail (SMTP is not configured)");
    expect(await test.api.services.db.selectFrom("account_tokens").selectAll().execute()).toEqual([]);
    expect((await (await mailApi()).gql(MAIL_AVAILABLE)).data).toEqual({ mailAvailable: true });
  });
});

describe("changing the email address", () => {
  it("mails a link to the new address; the old one works until it is followed, once", async () => {
    const test = await mailApi();
    const old = address("old");
    const next = address("new");
    const session = await signUp(test, old);
    expect((await test.gql(REQUEST_CHANGE, { email: next.toUpperCase() }, { token: session })).data).toEqual({ requestEmailChange: true });
    const mail = await mailTo(next);
    expect(mail.subject).toBe("Confirm your new Weatherbot address");
    expect(mail.text).toContain(next);
    const token = linkToken(mail, "confirm-email");
    await test.api.services.mail.flush();
    expect(smtp.mails.filter((received) => received.to.includes(old))).toEqual([]);

    // Until it is confirmed, nothing has changed.
    expect((await test.gql(VIEWER, {}, { token: session })).data?.me?.email).toBe(old);
    expect((await logIn(test, old, PASSWORD)).data?.logIn.token).toBeTruthy();
    expect(codes(await logIn(test, next, PASSWORD))).toEqual(["UNAUTHENTICATED"]);

    // No log-in needed: the link is the proof.
    expect((await test.gql(CONFIRM_CHANGE, { token })).data).toEqual({ confirmEmailChange: next });
    expect((await test.gql(VIEWER, {}, { token: session })).data?.me?.email).toBe(next);
    expect((await logIn(test, next, PASSWORD)).data?.logIn.token).toBeTruthy();
    expect(codes(await logIn(test, old, PASSWORD))).toEqual(["UNAUTHENTICATED"]);
    expect(refusal(await test.gql(CONFIRM_CHANGE, { token }))).toEqual({ code: "BAD_USER_INPUT", field: "token", reason: "TOKEN_USED" });
  });

  it("refuses an invalid, taken or unchanged address, sends nothing and changes nothing", async () => {
    const test = await mailApi();
    const own = address("own");
    const session = await signUp(test, own);
    const other = address("other");
    await signUp(test, other);
    const asks = async (email: string) => refusal(await test.gql(REQUEST_CHANGE, { email }, { token: session }));
    expect(await asks("not an address")).toEqual({ code: "BAD_USER_INPUT", field: "email", reason: "EMAIL_INVALID" });
    expect(await asks("")).toEqual({ code: "BAD_USER_INPUT", field: "email", reason: "EMAIL_REQUIRED" });
    expect(await asks(other)).toEqual({ code: "BAD_USER_INPUT", field: "email", reason: "EMAIL_TAKEN" });
    expect(await asks(own.toUpperCase())).toEqual({ code: "BAD_USER_INPUT", field: "email", reason: "EMAIL_UNCHANGED" });
    expect(codes(await test.gql(REQUEST_CHANGE, { email: address("anonymous") }))).toEqual(["UNAUTHENTICATED"]);
    await test.api.services.mail.flush();
    expect(await test.api.services.db.selectFrom("mail_outbox").selectAll().execute()).toEqual([]);
    expect(await test.api.services.db.selectFrom("account_tokens").selectAll().execute()).toEqual([]);
    expect((await test.gql(VIEWER, {}, { token: session })).data?.me?.email).toBe(own);
  });

  it("refuses a link whose address was taken meanwhile, or that expired, and changes nothing", async () => {
    const test = await mailApi();
    const own = address("keeps");
    const session = await signUp(test, own);
    const wanted = address("wanted");
    await test.gql(REQUEST_CHANGE, { email: wanted }, { token: session });
    const token = linkToken(await mailTo(wanted), "confirm-email");
    await signUp(test, wanted);
    expect(refusal(await test.gql(CONFIRM_CHANGE, { token }))).toEqual({ code: "BAD_USER_INPUT", field: "email", reason: "EMAIL_TAKEN" });
    expect((await test.gql(VIEWER, {}, { token: session })).data?.me?.email).toBe(own);

    const later = address("later");
    await test.gql(REQUEST_CHANGE, { email: later }, { token: session });
    const lateToken = linkToken(await mailTo(later), "confirm-email");
    clock += 25 * 3_600_000;
    expect(refusal(await test.gql(CONFIRM_CHANGE, { token: lateToken }))).toMatchObject({ reason: "TOKEN_EXPIRED" });
    expect((await test.gql(VIEWER, {}, { token: session })).data?.me?.email).toBe(own);
  });

  it("says plainly that it needs mail where the server sends none", async () => {
    const test = await apis();
    const session = await signUp(test, address("no-mail-change"));
    expect(refusal(await test.gql(REQUEST_CHANGE, { email: address("elsewhere") }, { token: session }))).toEqual({
      code: "FORBIDDEN",
      field: undefined,
      reason: "MAIL_UNAVAILABLE",
    });
  });
});
