import { stat } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HASH_SLOTS } from "~/api/auth/hash-slots.server";
import { LOGIN_LIMITS } from "~/api/auth/login-guard.server";
import { print } from "graphql";
import { LogOutDocument as LOG_OUT } from "~/lib/account-documents.generated";
import { codes, startTestApi, type GraphQLResponse, type TestApi } from "../support/api-server";
import {
  TestAccountLogInDocument as LOG_IN,
  TestAccountMeDocument as ME,
  TestAccountMeIdDocument as ME_ID,
  TestAccountPlaceIdsDocument as PLACE_IDS,
  TestAccountSignUpDocument as SIGN_UP,
  TestAccountSignUpInDocument as SIGN_UP_IN,
  TestAccountTimeZoneDocument as UPDATE_TIME_ZONE,
  TestAccountUpdateSettingsDocument as UPDATE_SETTINGS,
  type TestAccountLogInMutation,
} from "../support/documents.generated";
import { wsClient } from "../support/subscriber";

let t: TestApi;
beforeAll(async () => {
  t = await startTestApi();
});
afterAll(() => t.close());

// Typed documents (accounts.graphql; the app's LogOut): the answers below are read with their generated result types.

describe("accounts", () => {
  it("signs up, and the token identifies the user for 7 days", async () => {
    const before = Date.now();
    const result = await t.gql(SIGN_UP, {
      email: "  Ada@Example.com ",
      password: "analytical engine",
      language: "DE_DE",
      timeZone: "Europe/Berlin",
    });
    expect(result.errors).toBeUndefined();
    const session = result.data!.signUp;
    expect(session.token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 random bits
    expect(session.user.email).toBe("ada@example.com");
    expect(session.user.settings).toEqual({ language: "DE_DE", timeZone: "Europe/Berlin", temperatureUnit: "CELSIUS", hour12: false });
    const lifetime = Date.parse(session.expiresAt) - before;
    expect(lifetime).toBeGreaterThan(7 * 86_400_000 - 60_000);
    expect(lifetime).toBeLessThanOrEqual(7 * 86_400_000 + 60_000);

    const me = await t.gql(ME, {}, { token: session.token });
    expect(me.data!.me).toEqual({ id: session.user.id, email: "ada@example.com" });
  });

  it("starts a new account on its region's units: the UK °C and mph, the US °F, elsewhere metric; a bad region is refused", async () => {
    const settingsFor = async (email: string, region?: string) => (await t.gql(SIGN_UP_IN, { email, region })).data?.signUp.user.settings;
    expect(await settingsFor("uk@example.com", "GB")).toEqual({
      temperatureUnit: "CELSIUS",
      windSpeedUnit: "MPH",
      precipitationUnit: "MM",
      hour12: false,
    });
    expect(await settingsFor("us@example.com", "US")).toEqual({
      temperatureUnit: "FAHRENHEIT",
      windSpeedUnit: "MPH",
      precipitationUnit: "INCH",
      hour12: true,
    });
    expect(await settingsFor("ie@example.com", "IE")).toEqual({
      temperatureUnit: "CELSIUS",
      windSpeedUnit: "KMH",
      precipitationUnit: "MM",
      hour12: false,
    });
    // No region: the language's own (American English).
    expect(await settingsFor("en@example.com")).toEqual({
      temperatureUnit: "FAHRENHEIT",
      windSpeedUnit: "MPH",
      precipitationUnit: "INCH",
      hour12: true,
    });
    const bad = await t.gql(SIGN_UP_IN, { email: "bad-region@example.com", region: "Great Britain" });
    expect(codes(bad)).toEqual(["BAD_USER_INPUT"]);
  });

  it("stores only a hash of the token and of the password, at OWASP's scrypt cost unless told otherwise", async () => {
    // The API as a server configures it by default, not at the test run's cost.
    const own = await startTestApi({ passwordHashCost: undefined });
    try {
      const token = await own.signUp("hashcheck@example.com", "not stored anywhere");
      const sessions = await own.api.services.db.selectFrom("sessions").select("token_hash").execute();
      expect(sessions.some((row) => row.token_hash === token)).toBe(false);
      const user = await own.api.services.db
        .selectFrom("users")
        .selectAll()
        .where("email", "=", "hashcheck@example.com")
        .executeTakeFirstOrThrow();
      expect(user.password_hash).toMatch(/^scrypt\$131072\$8\$1\$/);
      expect(user.password_hash).not.toContain("not stored anywhere");
      expect((await own.gql(LOG_IN, { email: "hashcheck@example.com", password: "not stored anywhere" })).data?.logIn).toBeTruthy();
    } finally {
      await own.close();
    }
  });

  it.each([
    ["a short password", { email: "short@example.com", password: "seven77" }, "at least 8 characters"],
    ["a common password", { email: "common@example.com", password: "Password1" }, "too common"],
    ["a bad email", { email: "not-an-email", password: "long enough pass" }, "valid email"],
    ["a taken email, in other case", { email: "ADA@example.com", password: "long enough pass" }, "already exists"],
    ["an email with a NUL", { email: "nul\u0000@example.com", password: "long enough pass" }, "valid email"],
    ["an email with a control character", { email: "bell\u0007@example.com", password: "long enough pass" }, "valid email"],
    ["a password of eight spaces", { email: "spaces@example.com", password: "        " }, "only spaces"],
    [
      "a password that is the email's local part",
      { email: "Margaret.Hamilton@example.com", password: "margaret.hamilton" },
      "email address",
    ],
    ["a password that is the email", { email: "apollo@example.com", password: "Apollo@Example.com" }, "email address"],
    ["an unknown time zone", { email: "mars@example.com", password: "long enough pass", timeZone: "Mars/Olympus" }, "IANA time zone"],
  ])("refuses %s with BAD_USER_INPUT and writes nothing", async (_, variables, message) => {
    const usersBefore = await t.api.services.db.selectFrom("users").select("id").execute();
    const result = await t.gql(SIGN_UP, variables);
    expect(codes(result)).toEqual(["BAD_USER_INPUT"]);
    expect(result.errors![0]!.message).toContain(message);
    if (/email|password/.test(message)) expect(result.errors![0]!.extensions!.field).toBe(message === "valid email" ? "email" : "password");
    const usersAfter = await t.api.services.db.selectFrom("users").select("id").execute();
    expect(usersAfter.length).toBe(usersBefore.length);
  });

  it("stores a time zone given in another case under its IANA name, at sign-up and in settings", async () => {
    const signedUp = await t.gql(SIGN_UP, { email: "zones@example.com", password: "time zone traveller", timeZone: "europe/berlin" });
    expect(signedUp.data!.signUp.user.settings.timeZone).toBe("Europe/Berlin");
    const token = signedUp.data!.signUp.token;
    expect((await t.gql(UPDATE_TIME_ZONE, { input: { timeZone: "AMERICA/NEW_YORK" } }, { token })).data!.updateSettings.timeZone).toBe(
      "America/New_York",
    );
    expect((await t.gql(UPDATE_TIME_ZONE, { input: { timeZone: "utc" } }, { token })).data!.updateSettings.timeZone).toBe("UTC");
  });

  it("logs in with the right password only", async () => {
    await t.signUp("grace@example.com", "cobol compiler");
    const wrong = await t.gql(LOG_IN, { email: "grace@example.com", password: "fortran compiler" });
    expect(codes(wrong)).toEqual(["UNAUTHENTICATED"]);
    const unknown = await t.gql(LOG_IN, { email: "nobody@example.com", password: "fortran compiler" });
    expect(unknown.errors![0]!.message).toBe(wrong.errors![0]!.message); // no hint which one was wrong
    const right = await t.gql(LOG_IN, { email: "GRACE@example.com", password: "cobol compiler" });
    expect(right.data!.logIn.user.email).toBe("grace@example.com");
  });

  it("logOut revokes the session it was called with, and only that one", async () => {
    const first = await t.signUp("linus@example.com", "kernel hacker");
    const second = (await t.gql(LOG_IN, { email: "linus@example.com", password: "kernel hacker" })).data!.logIn.token;
    const out = await t.gql(LOG_OUT, {}, { token: first });
    expect(out.data).toEqual({ logOut: true });
    expect((await t.gql(ME, {}, { token: first })).data!.me).toBeNull();
    expect((await t.gql(ME, {}, { token: second })).data!.me!.email).toBe("linus@example.com");
  });

  it("rate-limits failed log-ins per account, even for the right password", async () => {
    await t.signUp("target@example.com", "the real password");
    for (let i = 0; i < 5; i++) {
      expect(codes(await t.gql(LOG_IN, { email: "target@example.com", password: `guess number ${i}` }))).toEqual(["UNAUTHENTICATED"]);
    }
    const limited = await t.gql(LOG_IN, { email: "target@example.com", password: "the real password" });
    expect(codes(limited)).toEqual(["RATE_LIMITED"]);
    expect(limited.errors![0]!.extensions!.retryAfterSeconds).toBeGreaterThan(800);
    // Other accounts from the same address are not locked out by this one.
    await t.signUp("bystander@example.com", "another password");
    expect((await t.gql(LOG_IN, { email: "bystander@example.com", password: "another password" })).data!.logIn).toBeTruthy();
  }, 120_000);

  it("counts every attempt before its password is checked: 30 log-ins at once for one account get no further than 5", async () => {
    await t.signUp("parallel@example.com", "the real password");
    const attempts = [
      ...Array.from({ length: 29 }, (_, i) => ({ email: "parallel@example.com", password: `parallel guess ${i}` })),
      { email: "parallel@example.com", password: "the real password" },
    ];
    const results = await Promise.all(attempts.map((variables) => t.gql(LOG_IN, variables)));
    const checked = results.filter((result) => !codes(result).includes("RATE_LIMITED"));
    expect(checked.length).toBe(5);
    // The right password came last, after five wrong ones had been counted.
    expect(codes(results.at(-1)!)).toEqual(["RATE_LIMITED"]);
  });

  it("locks an account only for the address that failed, until many addresses have failed", async () => {
    const from = (address: string) => ({ headers: { "x-forwarded-for": address } });
    await t.signUp("owner@example.com", "the owner's password");
    for (let i = 0; i < 5; i++) {
      expect(codes(await t.gql(LOG_IN, { email: "owner@example.com", password: `guess ${i}` }, from("198.51.100.1")))).toEqual([
        "UNAUTHENTICATED",
      ]);
    }
    expect(codes(await t.gql(LOG_IN, { email: "owner@example.com", password: "the owner's password" }, from("198.51.100.1")))).toEqual([
      "RATE_LIMITED",
    ]);
    // The owner, elsewhere, is not punished for someone else's guesses.
    const owner = await t.gql(LOG_IN, { email: "owner@example.com", password: "the owner's password" }, from("198.51.100.2"));
    expect(owner.data!.logIn.user.email).toBe("owner@example.com");
    // A blocked address blocks only itself: another user's right password from elsewhere passes.
    await t.signUp("neighbour@example.com", "the neighbour's password");
    expect(
      (await t.gql(LOG_IN, { email: "neighbour@example.com", password: "the neighbour's password" }, from("198.51.100.2"))).data!.logIn,
    ).toBeTruthy();

    // Guesses spread over many addresses still meet the account's own cap.
    const spread = LOGIN_LIMITS.perAccount - LOGIN_LIMITS.perAccountFromAddress;
    for (let i = 0; i < spread; i++) {
      const address = `198.51.100.${10 + Math.floor(i / LOGIN_LIMITS.perAccountFromAddress)}`;
      expect(codes(await t.gql(LOG_IN, { email: "owner@example.com", password: `spread guess ${i}` }, from(address)))).toEqual([
        "UNAUTHENTICATED",
      ]);
    }
    const capped = await t.gql(LOG_IN, { email: "owner@example.com", password: "the owner's password" }, from("198.51.100.99"));
    expect(codes(capped)).toEqual(["RATE_LIMITED"]);
  }, 120_000);

  it("hashes only a few passwords at once, refusing the rest, so that other requests stay fast during a flood", async () => {
    // At OWASP's cost, as in production: the test run's cheap hashes end before the flood has all arrived.
    const own = await startTestApi({ passwordHashCost: "owasp" });
    try {
      const finished: string[] = [];
      const flood = Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          own
            .gql(
              LOG_IN,
              { email: `flood${i}@example.com`, password: "wrong password" },
              { headers: { "x-forwarded-for": `192.0.2.${i + 1}` } },
            )
            .then((result) => (finished.push("login"), result)),
        ),
      );
      // Issued while the log-ins are being checked: a cheap query, and a file read, which needs
      // libuv's thread pool as scrypt does (as /healthz's static-file lookup does).
      const probes = Promise.all([
        own.gql(ME_ID).then((result) => (finished.push("query"), result)),
        stat(own.dataDir).then(() => finished.push("file")),
      ]);
      const [results, [query]] = await Promise.all([flood, probes]);
      expect(query.data).toEqual({ me: null });
      const busy = results.filter((result) => result.errors?.[0]?.extensions?.reason === "BUSY");
      expect(busy.length).toBe(30 - HASH_SLOTS.running - HASH_SLOTS.waiting);
      expect(busy.every((result) => codes(result)[0] === "RATE_LIMITED")).toBe(true);
      expect(results.filter((result) => codes(result)[0] === "UNAUTHENTICATED").length).toBe(HASH_SLOTS.running + HASH_SLOTS.waiting);
      // Both probes were answered while log-ins were still being checked.
      expect(finished.at(-1)).toBe("login");
      // Refused attempts were never checked, so they do not count against their address.
      const again = await own.gql(
        LOG_IN,
        { email: "flood0@example.com", password: "wrong password" },
        { headers: { "x-forwarded-for": "192.0.2.1" } },
      );
      expect(codes(again)).toEqual(["UNAUTHENTICATED"]);
    } finally {
      await own.close();
    }
  }, 60_000);

  it("rate-limits failed log-ins per address across accounts", async () => {
    // A separate server: the address-wide counter must start from zero.
    const own = await startTestApi();
    try {
      for (let i = 0; i < 20; i++) {
        expect(codes(await own.gql(LOG_IN, { email: `nobody${i}@example.com`, password: "wrong password" }))).toEqual(["UNAUTHENTICATED"]);
      }
      const limited = await own.gql(LOG_IN, { email: "someone-else@example.com", password: "wrong password" });
      expect(codes(limited)).toEqual(["RATE_LIMITED"]);
      expect(limited.errors![0]!.message).toMatch(/^Too many failed log-ins; try again in \d+ seconds$/);
    } finally {
      await own.close();
    }
  }, 120_000); // 20 password checks in a row, at OWASP cost, on a machine that may be busy

  it("counts log-ins over WebSocket against the address a trusted proxy forwards, the same limit as over HTTP", async () => {
    const own = await startTestApi(); // loopback is its trusted proxy
    const overWebSocket = (forwardedFor: string) => wsClient(own.url, null, { headers: { "x-forwarded-for": forwardedFor } });
    const logIn = (client: ReturnType<typeof overWebSocket>, email: string) =>
      new Promise<GraphQLResponse<TestAccountLogInMutation>>((resolve, reject) => {
        let result: GraphQLResponse<TestAccountLogInMutation>;
        // graphql-ws takes the text: the printed typed document, its result read with the document's type.
        client.subscribe<TestAccountLogInMutation>(
          { query: print(LOG_IN), variables: { email, password: "wrong password" } },
          {
            next: (value) => (result = value as GraphQLResponse<TestAccountLogInMutation>),
            error: reject,
            complete: () => resolve(result),
          },
        );
      });
    const first = overWebSocket("203.0.113.7");
    const second = overWebSocket("203.0.113.8");
    try {
      for (let i = 0; i < 20; i++) expect(codes(await logIn(first, `nobody${i}@example.com`))).toEqual(["UNAUTHENTICATED"]);
      expect(codes(await logIn(first, "someone@example.com"))).toEqual(["RATE_LIMITED"]);
      expect(
        codes(
          await own.gql(
            LOG_IN,
            { email: "someone@example.com", password: "wrong password" },
            { headers: { "x-forwarded-for": "203.0.113.7" } },
          ),
        ),
      ).toEqual(["RATE_LIMITED"]);
      expect(codes(await logIn(second, "someone@example.com"))).toEqual(["UNAUTHENTICATED"]);
    } finally {
      await first.dispose();
      await second.dispose();
      await own.close();
    }
  }, 120_000);

  it("updates settings with validation", async () => {
    const token = await t.signUp();
    const ok = await t.gql(
      UPDATE_SETTINGS,
      { input: { temperatureUnit: "FAHRENHEIT", quietHoursEnabled: true, quietFrom: "21:30" } },
      { token },
    );
    expect(ok.data!.updateSettings).toEqual({
      temperatureUnit: "FAHRENHEIT",
      quietHoursEnabled: true,
      quietFrom: "21:30",
      timeZone: "UTC",
    });
    const badTime = await t.gql(UPDATE_SETTINGS, { input: { quietFrom: "25:00" } }, { token });
    expect(badTime.errors![0]!.message).toContain("LocalTime must be a time from 00:00 to 23:59");
    const badZone = await t.gql(UPDATE_SETTINGS, { input: { timeZone: "Mars/Olympus" } }, { token });
    expect(badZone.errors![0]!.message).toContain("IANA time zone");
    expect(codes(await t.gql(UPDATE_SETTINGS, { input: { hour12: true } }))).toEqual(["UNAUTHENTICATED"]);
  });

  it("answers UNAUTHENTICATED for an unknown or malformed token", async () => {
    expect((await t.gql(ME, {}, { token: "x".repeat(43) })).data!.me).toBeNull();
    expect(codes(await t.gql(PLACE_IDS, {}, { token: "garbage" }))).toEqual(["UNAUTHENTICATED"]);
  });
});
