import { createECDH, randomBytes } from "node:crypto";
import { sql } from "kysely";
import { describe, expect, it, vi } from "vitest";
import { codes, testApis, type TestApi } from "../support/api-server";
import {
  TestPlacesAddDocument as ADD_PLACE,
  TestPlacesListDocument as PLACES,
  TestPlacesRemoveDocument as REMOVE_PLACE,
  TestSecurityDeleteAccountDocument as DELETE_ACCOUNT,
  TestSecurityLogInDocument as LOG_IN,
  TestSecurityMeDocument as ME,
  TestSecuritySaveBriefingDocument as SAVE_BRIEFING,
  TestSecuritySavePushDocument as SAVE_PUSH,
  TestSecuritySaveRuleDocument as SAVE_RULE,
  TestSecuritySendBriefingNowDocument as SEND_BRIEFING_NOW,
  TestSecuritySettingsDocument as UPDATE_SETTINGS,
} from "../support/documents.generated";
import { messageSubscriber } from "../support/subscriber";

const PASSWORD = "a sturdy passphrase";
const BERLIN = { latitude: 52.52, longitude: 13.41 };
const PARIS = { latitude: 48.85, longitude: 2.35 };
const ZURICH = { latitude: 47.37, longitude: 8.54 };

const api = testApis();

/** Every table of the database, as the database lists them (not a list kept by hand). */
async function tables(t: TestApi): Promise<string[]> {
  const { db } = t.api.services;
  const rows = t.databaseUrl
    ? await sql<{ name: string }>`select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db)
    : await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db);
  return rows.rows.map((row) => row.name).sort();
}

/** How many rows each table holds, every table. Write-behind stores are flushed first, so their rows are counted too. */
async function rowCounts(t: TestApi): Promise<Record<string, number>> {
  await t.api.services.forecasts.flushStores();
  await t.api.services.airQuality.flushStores();
  await t.api.services.lastSeen.settled();
  const counts: Record<string, number> = {};
  for (const table of await tables(t)) {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(t.api.services.db);
    counts[table] = Number(rows[0]!.n);
  }
  return counts;
}

/** Every row of every table that mentions one of `needles` (an id, an email), as "table: row". */
async function rowsMentioning(t: TestApi, needles: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const table of await tables(t)) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(t.api.services.db);
    for (const row of rows) {
      const text = JSON.stringify(row);
      if (needles.some((needle) => text.includes(needle))) found.push(`${table}: ${text}`);
    }
  }
  return found;
}

/** A browser's push subscription, as PushSubscription.toJSON() gives it (a loopback endpoint, which tests may use). */
function pushSubscription(name: string) {
  const keys = createECDH("prime256v1");
  keys.generateKeys();
  return {
    endpoint: `http://127.0.0.1:9/push/${name}-${randomBytes(4).toString("hex")}`,
    p256dh: keys.getPublicKey().toString("base64url"),
    auth: randomBytes(16).toString("base64url"),
  };
}

/** An account holding a row of every kind: settings, places (one removed, kept for undo), a rule with its state and
 * episode, a warning told, a briefing with its places, messages (one held back from push), a push subscription, two
 * sessions (one used: its last-seen row). Every place is at coordinates `others` already has, so no shared cache grows. */
async function fullAccount(t: TestApi, email: string) {
  const token = await t.signUp(email, PASSWORD);
  const gql = t.gql.bind(t) as TestApi["gql"];
  const as = { token };
  const userId = (await gql(ME, {}, as)).data!.me!.id;
  const phone = (await gql(LOG_IN, { email, password: PASSWORD }, { headers: { "user-agent": "Mozilla/5.0 (Android 14; Mobile)" } })).data!
    .logIn.token;
  expect((await gql(ME, {}, { token: phone })).data!.me!.id).toBe(userId);
  expect((await gql(UPDATE_SETTINGS, {}, as)).errors).toBeUndefined();
  const berlin = (await gql(ADD_PLACE, { ...BERLIN, label: "Home" }, as)).data!.addPlace.id;
  const paris = (await gql(ADD_PLACE, { ...PARIS, label: "Work" }, as)).data!.addPlace.id;
  const zurich = (await gql(ADD_PLACE, { ...ZURICH, label: "Gone" }, as)).data!.addPlace.id;
  expect((await gql(REMOVE_PLACE, { id: zurich }, as)).errors).toBeUndefined();
  const rule = (await gql(SAVE_RULE, { placeId: berlin }, as)).data!.saveAlertRule.id;
  const briefing = (await gql(SAVE_BRIEFING, { placeIds: [berlin, paris] }, as)).data!.saveBriefing.id;
  const message = (await gql(SEND_BRIEFING_NOW, { id: briefing }, as)).data!.sendBriefingNow.id;
  expect((await gql(SAVE_PUSH, pushSubscription("device"), as)).data).toEqual({ savePushSubscription: true });

  // What only the bot writes, written as it would.
  const { db, inbox, now } = t.api.services;
  const at = now().toISOString();
  await inbox.write({ userId, kind: "SYSTEM", title: "Hello", body: "Welcome", dedupeKey: `hello:${userId}` });
  await db.insertInto("held_pushes").values({ message_id: message, user_id: userId, created_at: at, due_at: at }).execute();
  await db
    .insertInto("alert_states")
    .values({ rule_id: rule, place_id: berlin, state: "ALERTING", episode_start: at, last_triggered_at: at })
    .execute();
  await db
    .insertInto("alert_episodes")
    .values({
      user_id: userId,
      rule_key: "WIND_GUSTS|>60",
      location_key: "52.52,13.41",
      start: at,
      window_from: at,
      window_to: at,
      alerted_at: at,
      closed_at: null,
    })
    .execute();
  await db
    .insertInto("warning_places")
    .values({ place_id: berlin, user_id: userId, area_key: "meteoalarm:DE", content_hash: "-" })
    .execute();
  await db
    .insertInto("warning_states")
    .values({
      user_id: userId,
      warning_id: "dwd:1",
      message_id: "cap-1",
      issued_id: "cap-1",
      sent: at,
      place_ids: berlin,
      content: "{}",
      told_at: at,
      cleared_at: null,
    })
    .execute();
  // An email change waiting for its link, and its mail not yet sent (as the mail code writes them; no SMTP here).
  await db
    .insertInto("account_tokens")
    .values({
      token_hash: `hash-${userId}`,
      purpose: "EMAIL_CHANGE",
      user_id: userId,
      email: "new@example.com",
      created_at: at,
      expires_at: at,
      used_at: null,
    })
    .execute();
  await db
    .insertInto("mail_outbox")
    .values({
      id: `mail-${userId}`,
      dedupe_key: `email-change:hash-${userId}`,
      user_id: userId,
      kind: "EMAIL_CHANGE",
      payload: "sealed",
      state: "PENDING",
      created_at: at,
      expires_at: at,
      next_attempt_at: at,
      attempts: 0,
      lease_owner: null,
      lease_until: null,
      sent_at: null,
      last_error: null,
    })
    .execute();
  return { token, phone, userId, placeIds: [berlin, paris, zurich], rule, briefing };
}

/** Another account, at the same coordinates (the shared weather caches hold them before the counting starts). */
async function bystander(t: TestApi) {
  const email = `bystander-${randomBytes(3).toString("hex")}@example.com`;
  await t.signUp(email, PASSWORD);
  // Logged in from this address, as the account below will be (on PostgreSQL a log-in keeps a lock row per address).
  const token = (await t.gql(LOG_IN, { email, password: PASSWORD })).data!.logIn.token;
  for (const [place, label] of [
    [BERLIN, "Berlin"],
    [PARIS, "Paris"],
    [ZURICH, "Zurich"],
  ] as const) {
    expect((await t.gql(ADD_PLACE, { ...place, label }, { token })).errors).toBeUndefined();
  }
  const placeIds = (await t.gql(PLACES, {}, { token })).data!.places.map((place) => place.id);
  const briefing = (await t.gql(SAVE_BRIEFING, { placeIds }, { token })).data!.saveBriefing.id;
  await t.gql(SEND_BRIEFING_NOW, { id: briefing }, { token });
  return token;
}

describe("deleting an account", () => {
  it("removes every row of the user from every table, ends its sessions and sockets; the email can sign up again", async () => {
    const t = await api();
    const other = await bystander(t);
    const before = await rowCounts(t);
    expect(Object.keys(before).length).toBeGreaterThanOrEqual(24);

    const email = "leaving@example.com";
    const ada = await fullAccount(t, email);
    const during = await rowCounts(t);
    // Every table a user's rows live in has some of Ada's now (the shared ones are listed: they hold none of hers).
    const shared = [
      "air_quality_cache",
      "engine_instances",
      "engine_shards",
      "forecast_cache",
      "kysely_migration",
      "kysely_migration_lock",
      // The weather the rules watch, per coordinate, and the warnings areas (decision 026): no user's row.
      "watched_feeds",
      "warning_areas",
    ];
    const sharedAlso = ["message_order", "rate_events", "rate_limit_keys", "request_counts", "search_results", "removed_places"];
    const grown = Object.keys(during).filter((table) => during[table]! > before[table]! && !sharedAlso.includes(table));
    expect(grown.sort()).toEqual(
      Object.keys(before)
        .filter((table) => ![...shared, ...sharedAlso].includes(table))
        .sort(),
    );
    const socket = messageSubscriber(t.url, ada.phone);
    await vi.waitFor(() => expect(t.api.services.sessionEnds.watched()).toHaveLength(1));

    const deleted = await t.gql(DELETE_ACCOUNT, { password: PASSWORD }, { token: ada.token });
    expect(deleted.errors).toBeUndefined();
    expect(deleted.data).toEqual({ deleteAccount: true });

    expect(await rowCounts(t)).toEqual(before);
    expect(await rowsMentioning(t, [ada.userId, email, ...ada.placeIds, ada.rule, ada.briefing])).toEqual([]);
    await vi.waitFor(() => expect(socket.seen.closeCode).toBe(4401));
    await socket.dispose();
    for (const token of [ada.token, ada.phone]) expect((await t.gql(ME, {}, { token })).data).toEqual({ me: null });
    expect(codes(await t.gql(LOG_IN, { email, password: PASSWORD }))).toEqual(["UNAUTHENTICATED"]);
    // Nothing of it stays in this instance's caches.
    expect(t.api.services.userCaches.users().has(ada.userId)).toBe(false);

    // The other account is as it was; the address is free for a new account.
    expect((await t.gql(PLACES, {}, { token: other })).data!.places).toHaveLength(3);
    const again = await t.signUp(email, "a new sturdy passphrase");
    const me = (await t.gql(ME, {}, { token: again })).data!.me!;
    expect(me.email).toBe(email);
    expect(me.id).not.toBe(ada.userId);
    expect((await t.gql(PLACES, {}, { token: again })).data!.places).toEqual([]);
  });

  it("without the password, or with a wrong one, fails clearly and deletes nothing", async () => {
    const t = await api();
    await bystander(t);
    const ada = await fullAccount(t, "staying@example.com");
    const before = await rowCounts(t);

    const wrong = await t.gql(DELETE_ACCOUNT, { password: "not the password" }, { token: ada.token });
    expect(wrong.data).toBeNull();
    expect(wrong.errors![0]!.extensions).toMatchObject({ code: "BAD_USER_INPUT", field: "password", reason: "PASSWORD_WRONG" });
    const missing = await t.gql(DELETE_ACCOUNT, { password: "" }, { token: ada.token });
    expect(missing.errors![0]!.extensions).toMatchObject({ code: "BAD_USER_INPUT", field: "password", reason: "PASSWORD_REQUIRED" });
    expect(codes(await t.gql(`mutation { deleteAccount }`, {}, { token: ada.token }))).toEqual(["GRAPHQL_VALIDATION_FAILED"]);
    expect(codes(await t.gql(DELETE_ACCOUNT, { password: PASSWORD }))).toEqual(["UNAUTHENTICATED"]);

    const after = await rowCounts(t);
    // Only the failed attempt was counted (log-in's limits: rate_events, and on PostgreSQL their lock rows).
    expect({ ...after, rate_events: 0, rate_limit_keys: 0 }).toEqual({ ...before, rate_events: 0, rate_limit_keys: 0 });
    expect((await t.gql(ME, {}, { token: ada.token })).data!.me!.id).toBe(ada.userId);
    expect((await t.gql(ME, {}, { token: ada.phone })).data!.me!.id).toBe(ada.userId);
    expect((await t.gql(PLACES, {}, { token: ada.token })).data!.places).toHaveLength(2);
  });

  it("takes the log-in limits counted for its email with it, not the addresses'", async () => {
    const t = await api();
    const email = "limited@example.com";
    const token = await t.signUp(email, PASSWORD);
    for (const address of ["198.51.100.1", "198.51.100.2"]) {
      const failed = await t.gql(LOG_IN, { email, password: "a wrong guess" }, { headers: { "x-forwarded-for": address } });
      expect(codes(failed)).toEqual(["UNAUTHENTICATED"]);
    }
    const events = () => t.api.services.db.selectFrom("rate_events").select(["rule", "key"]).execute();
    expect((await events()).filter((event) => event.key.includes(email))).toHaveLength(4);

    expect((await t.gql(DELETE_ACCOUNT, { password: PASSWORD }, { token })).data).toEqual({ deleteAccount: true });
    expect(await rowsMentioning(t, [email])).toEqual([]);
    // What each address tried stays counted against the address.
    expect((await events()).filter((event) => event.key.startsWith("198.51.100."))).toHaveLength(2);
  });

  it("leaves nothing of the account in any instance's caches: the deleting one at once, the other within seconds", async () => {
    const a = await api();
    const b = await api({ dataDir: a.dataDir, databaseUrl: a.databaseUrl, fake: a.fake });
    const other = await bystander(a);
    const ada = await fullAccount(a, "cached@example.com");
    // Both instances have read and cached Ada's session, answers and places, and Bob's.
    for (const t of [a, b]) {
      for (const token of [ada.token, other]) {
        await t.gql(ME, {}, { token });
        await t.gql(PLACES, {}, { token });
      }
    }
    const otherId = (await a.gql(ME, {}, { token: other })).data!.me!.id;
    for (const t of [a, b]) expect([...t.api.services.userCaches.users()].sort()).toEqual([ada.userId, otherId].sort());
    const onB = messageSubscriber(b.url, ada.phone);
    await vi.waitFor(() => expect(b.api.services.sessionEnds.watched()).toHaveLength(1));

    expect((await a.gql(DELETE_ACCOUNT, { password: PASSWORD }, { token: ada.token })).data).toEqual({ deleteAccount: true });
    expect([...a.api.services.userCaches.users()]).toEqual([otherId]);
    await vi.waitFor(() => expect([...b.api.services.userCaches.users()]).toEqual([otherId]), { timeout: 10_000, interval: 50 });
    await vi.waitFor(() => expect(onB.seen.closeCode).toBe(4401), { timeout: 5_000 });
    await onB.dispose();
    // B answers for Ada as for nobody, and for Bob as before.
    expect((await b.gql(ME, {}, { token: ada.token })).data).toEqual({ me: null });
    expect((await b.gql(PLACES, {}, { token: other })).data!.places).toHaveLength(3);
  });
});
