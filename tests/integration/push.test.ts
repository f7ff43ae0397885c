import { afterEach, describe, expect, it, vi } from "vitest";
import { guardedLookup, postPush } from "~/api/bot/push-endpoint.server";
import { createPushService, GROUP_TAG, loadVapidKeys } from "~/api/bot/push.server";
import { ENGINE_SHARDS, scopeOf, shardOf } from "~/api/bot/shard-ranges";
import { startFakePushService } from "../fakes/push-service";
import { type SavePushSubscriptionMutationVariables } from "~/lib/graphql/documents.generated";
import { PushPublicKeyDocument, SavePushSubscriptionDocument } from "~/lib/graphql/later-documents.generated";
import { codes, startTestApi, type TestApi } from "../support/api-server";
import {
  TestAlertAddOfficeDocument,
  TestAlertSaveRuleDocument,
  TestAlertSearchLondonDocument,
  TestPushOffDocument,
  TestPushSettingsDocument,
  TestPushUnreadCountDocument,
  TestPushViewerDocument,
} from "../support/documents.generated";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function setUp(start = "2026-06-01T12:00:00Z", { pushAllowLoopback = true } = {}) {
  let now = Date.parse(start);
  const pushService = await startFakePushService();
  const t: TestApi = await startTestApi({ now: () => new Date(now), pushAllowLoopback });
  cleanups.push(
    () => t.close(),
    () => pushService.close(),
  );
  const token = await t.signUp();
  await t.gql(
    TestPushSettingsDocument,
    {
      input: { pushEnabled: true, timeZone: "UTC", quietHoursEnabled: true, quietFrom: "22:00", quietTo: "07:00" },
    },
    { token },
  );
  const subscription = pushService.subscription("device-1");
  const saved = await t.gql(
    SavePushSubscriptionDocument,
    {
      endpoint: subscription.endpoint,
      p256dh: subscription.p256dh,
      auth: subscription.auth,
    },
    { token },
  );
  expect(saved.data).toEqual(pushAllowLoopback ? { savePushSubscription: true } : null);
  const userId = (await t.gql(TestPushViewerDocument, {}, { token })).data!.me!.id;
  async function message(title: string, urgent = false) {
    const row = await t.api.services.inbox.write({
      userId,
      kind: urgent ? "ALERT" : "BRIEFING",
      title,
      body: `${title} body`,
      urgent,
      dedupeKey: `${title}:${now}`,
    });
    return t.api.services.push.deliver(row!);
  }
  return { t, token, pushService, subscription, message, setTime: (iso: string) => (now = Date.parse(iso)) };
}

describe("web push", () => {
  it("publishes a stable VAPID public key", async () => {
    const { t } = await setUp();
    const key = (await t.gql(PushPublicKeyDocument)).data!.pushPublicKey;
    expect(Buffer.from(key, "base64url")).toHaveLength(65);
    const again = await startTestApi({ dataDir: t.dataDir, databaseUrl: t.databaseUrl, fake: t.fake });
    cleanups.push(() => again.close());
    expect((await again.gql(PushPublicKeyDocument)).data!.pushPublicKey).toBe(key);
  });

  it("sends an encrypted, VAPID-signed push the browser can read", async () => {
    const { t, pushService, subscription, message } = await setUp();
    expect(await message("Morning · Today")).toBe(1);
    const [push] = pushService.received;
    expect(push!.path).toBe("/push/device-1");
    expect(push!.headers["content-encoding"]).toBe("aes128gcm");
    expect(push!.headers.ttl).toBe("86400");
    const vapidKey = (await t.gql(PushPublicKeyDocument)).data!.pushPublicKey;
    expect(String(push!.headers.authorization)).toMatch(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${vapidKey}$`));
    const payload = subscription.decrypt(push!.body);
    expect(payload).toMatchObject({ title: "Morning · Today", body: "Morning · Today body", kind: "BRIEFING" });
    expect(payload.url).toBe(`/?message=${payload.tag}`);
  });

  it("sends at most one notification per user for an engine tick: several alerts as one summary under one tag, urgent ones on their own", async () => {
    const { t, token, pushService, subscription, setTime } = await setUp();
    t.fake.setScenario(() => ({ wind_gusts_10m: 10, temperature_2m: 10, apparent_temperature: 10, precipitation: 0, weather_code: 3 }));
    const found = await t.gql(TestAlertSearchLondonDocument, {}, { token });
    await t.gql(TestAlertAddOfficeDocument, { id: found.data!.searchLocations[0]!.id }, { token });
    const rule = (name: string, metric: "WIND_GUSTS" | "TEMPERATURE" | "APPARENT_TEMPERATURE", urgent: boolean) =>
      t.gql(
        TestAlertSaveRuleDocument,
        { input: { name, metric, comparator: "AT_LEAST", threshold: 20, lookaheadHours: 6, urgent } },
        { token },
      );
    for (const saved of [
      await rule("Gale", "WIND_GUSTS", true),
      await rule("Warm", "TEMPERATURE", false),
      await rule("Muggy", "APPARENT_TEMPERATURE", false),
    ])
      expect(saved.errors).toBeUndefined();
    const received = () => pushService.received.map((push) => subscription.decrypt(push.body));

    // The rules' first pass finds nothing ahead; a later forecast crosses all three.
    await t.api.engine.pass(1);
    t.fake.setScenario(() => ({ wind_gusts_10m: 95, temperature_2m: 31, apparent_temperature: 33, precipitation: 4, weather_code: 3 }));
    setTime("2026-06-01T15:00:00Z");
    // One tick: three alerts in the inbox, two notifications.
    await t.api.engine.pass(2);
    await expect.poll(() => received().length).toBe(2);
    const [first, second] = [...received()].sort((a, b) => a.kind.localeCompare(b.kind));
    expect(first).toMatchObject({ kind: "ALERT", title: "Gale: Office" });
    expect(second).toMatchObject({ kind: "GROUP", title: "2 new messages", tag: GROUP_TAG, url: "/" });
    expect(second!.body.split("\n").sort()).toEqual(["Muggy: Office", "Warm: Office"]);
    expect((await t.gql(TestPushUnreadCountDocument, {}, { token })).data!.me!.unreadCount).toBe(3);

    // A tick with one message (a rule made since) sends it as itself, under its own tag.
    const rain = await t.gql(
      TestAlertSaveRuleDocument,
      { input: { name: "Wet", metric: "PRECIPITATION", comparator: "AT_LEAST", threshold: 1, lookaheadHours: 6 } },
      { token },
    );
    expect(rain.errors).toBeUndefined();
    await t.api.engine.pass(3);
    await expect.poll(() => received().length).toBe(3);
    expect(received()[2]).toMatchObject({ kind: "ALERT", title: "Wet: Office" });
    expect(received()[2]!.tag).not.toBe(GROUP_TAG);
  });

  it("holds pushes during quiet hours, lets urgent ones through, and sends one digest after", async () => {
    const { t, token, pushService, subscription, message, setTime } = await setUp("2026-06-01T23:00:00Z");
    expect(await message("Tomorrow")).toBe("held");
    expect(await message("Later")).toBe("held");
    expect(await message("Storm", true)).toBe(1);
    expect(pushService.received.map((push) => subscription.decrypt(push.body).title)).toEqual(["Storm"]);
    // The inbox has everything regardless.
    expect((await t.gql(TestPushUnreadCountDocument, {}, { token })).data!.me!.unreadCount).toBe(3);

    setTime("2026-06-02T03:00:00Z");
    expect(await t.api.services.push.sendDigests()).toBe(0);
    setTime("2026-06-02T07:05:00Z");
    expect(await t.api.services.push.sendDigests()).toBe(1);
    expect(await t.api.services.push.sendDigests()).toBe(0);
    const digest = subscription.decrypt(pushService.received[1]!.body);
    expect(digest).toMatchObject({ title: "2 messages during quiet hours", body: "Tomorrow\nLater", kind: "DIGEST" });
  });

  it("keeps each held push due when the quiet hours end, and reads none before", async () => {
    const { t, message, setTime } = await setUp("2026-06-01T23:00:00Z");
    expect(await message("Tomorrow")).toBe("held");
    const { db } = t.api.services;
    expect(await db.selectFrom("held_pushes").select("due_at").execute()).toEqual([{ due_at: "2026-06-02T07:00:00.000Z" }]);
    setTime("2026-06-02T06:59:00Z");
    expect(await t.api.services.push.sendDigests()).toBe(0);
    setTime("2026-06-02T07:00:00Z");
    expect(await t.api.services.push.sendDigests()).toBe(1);
  });

  it("sends held pushes at the next tick when the person ends their quiet hours early", async () => {
    const { t, token, pushService, subscription, message, setTime } = await setUp("2026-06-01T23:00:00Z");
    expect(await message("Tomorrow")).toBe("held");
    setTime("2026-06-02T03:00:00Z");
    await t.gql(TestPushSettingsDocument, { input: { quietHoursEnabled: false } }, { token });
    expect(await t.api.services.push.sendDigests()).toBe(1);
    expect(subscription.decrypt(pushService.received[0]!.body)).toMatchObject({ kind: "DIGEST", body: "Tomorrow" });
  });

  it("holds pushes on to the new end when a settings change moves the quiet hours later", async () => {
    const { t, token, pushService, message, setTime } = await setUp("2026-06-01T23:00:00Z");
    expect(await message("Tomorrow")).toBe("held");
    setTime("2026-06-02T03:00:00Z");
    await t.gql(TestPushSettingsDocument, { input: { quietTo: "09:00" } }, { token });
    expect(await t.api.services.push.sendDigests()).toBe(0);
    const { db } = t.api.services;
    expect(await db.selectFrom("held_pushes").select("due_at").execute()).toEqual([{ due_at: "2026-06-02T09:00:00.000Z" }]);
    setTime("2026-06-02T07:05:00Z");
    expect(await t.api.services.push.sendDigests()).toBe(0);
    setTime("2026-06-02T09:00:00Z");
    expect(await t.api.services.push.sendDigests()).toBe(1);
    expect(pushService.received).toHaveLength(1);
  });

  it("sends one digest when two engine instances reach the same held pushes at once, and only for the users in scope", async () => {
    const { t, pushService, subscription, message, setTime } = await setUp("2026-06-01T23:00:00Z");
    expect(await message("Tomorrow")).toBe("held");
    expect(await message("Later")).toBe("held");
    setTime("2026-06-02T07:05:00Z");
    const { db, now } = t.api.services;
    const other = createPushService({
      db,
      now,
      vapid: loadVapidKeys(t.dataDir),
      subject: "mailto:admin@weatherbot.example",
      endpointPolicy: { allowLoopback: true },
    });
    const userId = (await db.selectFrom("held_pushes").select("user_id").executeTakeFirstOrThrow()).user_id;
    // Another instance's shards: this user is not among them.
    const elsewhere = scopeOf(Array.from({ length: ENGINE_SHARDS }, (_, shard) => shard).filter((shard) => shard !== shardOf(userId)));
    expect(await other.sendDigests(elsewhere)).toBe(0);
    const sent = await Promise.all([t.api.services.push.sendDigests(), other.sendDigests(scopeOf([shardOf(userId)]))]);
    expect(sent[0] + sent[1]).toBe(1);
    expect(pushService.received.map((push) => subscription.decrypt(push.body).kind)).toEqual(["DIGEST"]);
  });

  it("sends nothing while push is off", async () => {
    const { t, token, pushService, message } = await setUp();
    await t.gql(TestPushOffDocument, {}, { token });
    expect(await message("Quiet")).toBe("off");
    expect(pushService.received).toEqual([]);
  });

  it("removes a subscription the push service says is gone", async () => {
    const { t, pushService, message } = await setUp();
    pushService.answer("/push/device-1", 410);
    expect(await message("First")).toBe(0);
    expect(await t.api.services.db.selectFrom("push_subscriptions").select("id").execute()).toEqual([]);
    expect(await message("Second")).toBe(0);
    expect(pushService.received).toHaveLength(1);
  });

  it("validates subscriptions", async () => {
    const { t, token, pushService } = await setUp();
    const good = pushService.subscription("device-2");
    const save = (variables: SavePushSubscriptionMutationVariables) =>
      t.gql(SavePushSubscriptionDocument, variables, {
        token,
      });
    expect(codes(await save({ endpoint: "http://push.example.com/x", p256dh: good.p256dh, auth: good.auth }))).toEqual(["BAD_USER_INPUT"]);
    expect(codes(await save({ endpoint: good.endpoint, p256dh: "short", auth: good.auth }))).toEqual(["BAD_USER_INPUT"]);
    expect(codes(await save({ endpoint: good.endpoint, p256dh: good.p256dh, auth: "AAAA" }))).toEqual(["BAD_USER_INPUT"]);
    expect(codes(await t.gql(SavePushSubscriptionDocument, { endpoint: "https://push.example.com/x", p256dh: "x", auth: "y" }))).toEqual([
      "UNAUTHENTICATED",
    ]);
  });

  it("accepts only https endpoints on public addresses", async () => {
    const { t, token, pushService } = await setUp("2026-06-01T12:00:00Z", { pushAllowLoopback: false });
    const keys = pushService.subscription("device-3");
    const save = (endpoint: string) => t.gql(SavePushSubscriptionDocument, { endpoint, p256dh: keys.p256dh, auth: keys.auth }, { token });
    for (const endpoint of [
      "http://push.example.com/x",
      "https://localhost/x",
      "https://push.localhost./x",
      "https://10.1.2.3/x",
      "https://172.16.0.1/x",
      "https://192.168.1.1/x",
      "https://169.254.169.254/latest/meta-data",
      "https://100.64.0.1/x",
      "https://0.0.0.0/x",
      "https://224.0.0.1/x",
      "https://2130706433/x", // 127.0.0.1 written as one number
      "https://[::1]/x",
      "https://[::ffff:127.0.0.1]/x",
      "https://[::ffff:10.0.0.1]/x",
      "https://[fe80::1]/x",
      "https://[fd12:3456::1]/x",
      "https://[ff02::1]/x",
      "https://[::]/x",
      "https://user:secret@push.example.com/x",
    ]) {
      const refused = await save(endpoint);
      expect(codes(refused), endpoint).toEqual(["BAD_USER_INPUT"]);
      expect(refused.errors![0]!.message, endpoint).toMatch(/endpoint/);
    }
    for (const endpoint of [
      "https://fcm.googleapis.com/fcm/send/abc",
      "https://updates.push.services.mozilla.com/wpush/v2/x",
      "https://8.8.8.8/x",
      "https://[2606:4700::1111]/x",
    ]) {
      expect((await save(endpoint)).data, endpoint).toEqual({ savePushSubscription: true });
    }
  });

  it("refuses loopback endpoints unless the test setting allows them, also for rows saved before", async () => {
    const { t, token, pushService, message } = await setUp("2026-06-01T12:00:00Z", { pushAllowLoopback: false });
    const device = pushService.subscription("device-4");
    const saved = await t.gql(
      SavePushSubscriptionDocument,
      { endpoint: device.endpoint, p256dh: device.p256dh, auth: device.auth },
      { token },
    );
    expect(codes(saved)).toEqual(["BAD_USER_INPUT"]);
    // A row that got in before this rule is not posted to either.
    const userId = (await t.gql(TestPushViewerDocument, {}, { token })).data!.me!.id;
    await t.api.services.db
      .insertInto("push_subscriptions")
      .values({
        id: "old-row",
        user_id: userId,
        endpoint: device.endpoint,
        p256dh: device.p256dh,
        auth: device.auth,
        created_at: new Date().toISOString(),
      })
      .execute();
    const warned = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      expect(await message("Not sent")).toBe(0);
      expect(warned.mock.calls.flat().join(" ")).toMatch(/not a private, loopback or local address: not sent/);
    } finally {
      warned.mockRestore();
    }
    expect(pushService.received).toEqual([]);
  });
});

describe("push requests at send time", () => {
  it("resolve the endpoint's name and refuse to connect to a private address (DNS rebinding)", async () => {
    const pushService = await startFakePushService();
    cleanups.push(() => pushService.close());
    // A name, not an address literal: "localhost" resolves to 127.0.0.1 as a rebound name would.
    const byName = pushService.subscription("by-name").endpoint.replace("127.0.0.1", "localhost");
    const request = { method: "POST", headers: { TTL: "60" }, body: Buffer.from("x") };
    await expect(postPush(byName, request, { allowLoopback: false })).rejects.toThrow(/not a private, loopback or local address: not sent/);
    // The name check aside, the socket's own lookup refuses what the name resolves to.
    const resolved = await new Promise<Error | null>((resolve) => guardedLookup(false)("localhost", {}, (error) => resolve(error)));
    expect(resolved?.message).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), not a public address/);
    expect(pushService.received).toEqual([]);
    expect(await postPush(byName, request, { allowLoopback: true })).toBe(201);
    expect(pushService.received).toHaveLength(1);
  });

  it("check every address a name resolves to", async () => {
    const answers =
      (addresses: string[]) =>
      (_host: string, _options: object, callback: (error: Error | null, found: Array<{ address: string; family: number }>) => void) =>
        callback(
          null,
          addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })),
        );
    const lookUp = (addresses: string[]) =>
      new Promise<string>((resolve, reject) =>
        guardedLookup(false, answers(addresses) as never)("push.example.com", {}, (error, address) =>
          error ? reject(error) : resolve(address as string),
        ),
      );
    expect(await lookUp(["93.184.215.14"])).toBe("93.184.215.14");
    await expect(lookUp(["93.184.215.14", "10.0.0.7"])).rejects.toThrow(/10\.0\.0\.7/);
    await expect(lookUp(["::ffff:192.168.0.1"])).rejects.toThrow(/not a public address/);
    // NAT64 carries a public IPv4 address (DNS64 networks answer so); IPv4-compatible ::/96 is no public range.
    expect(await lookUp(["64:ff9b::93.184.215.14"])).toBe("64:ff9b::93.184.215.14");
    await expect(lookUp(["64:ff9b::10.0.0.7"])).rejects.toThrow(/not a public address/);
    await expect(lookUp(["::93.184.215.14"])).rejects.toThrow(/not a public address/);
    await expect(lookUp(["198.18.0.1"])).rejects.toThrow(/not a public address/);
    await expect(lookUp(["2001:db8::1"])).rejects.toThrow(/not a public address/);
  });
});
