import { afterEach, describe, expect, it } from "vitest";
import { startFakePushService } from "../fakes/push-service";
import { codes, startTestApi, type TestApi } from "../support/api-server";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function setUp(start = "2026-06-01T12:00:00Z") {
  let now = Date.parse(start);
  const pushService = await startFakePushService();
  const t: TestApi = await startTestApi({ now: () => new Date(now) });
  cleanups.push(() => t.close(), () => pushService.close());
  const token = await t.signUp();
  await t.gql(`mutation ($input: SettingsInput!) { updateSettings(input: $input) { id } }`, {
    input: { pushEnabled: true, timeZone: "UTC", quietHoursEnabled: true, quietFrom: "22:00", quietTo: "07:00" },
  }, { token });
  const subscription = pushService.subscription("device-1");
  const saved = await t.gql(`mutation ($e: String!, $k: String!, $a: String!) { savePushSubscription(endpoint: $e, p256dh: $k, auth: $a) }`, {
    e: subscription.endpoint,
    k: subscription.p256dh,
    a: subscription.auth,
  }, { token });
  expect(saved.data).toEqual({ savePushSubscription: true });
  const userId = (await t.gql(`{ me { id } }`, {}, { token })).data!.me.id as string;
  async function message(title: string, urgent = false) {
    const row = await t.api.services.inbox.write({ userId, kind: urgent ? "ALERT" : "BRIEFING", title, body: `${title} body`, urgent, dedupeKey: `${title}:${now}` });
    return t.api.services.push.deliver(row!);
  }
  return { t, token, pushService, subscription, message, setTime: (iso: string) => (now = Date.parse(iso)) };
}

describe("web push", () => {
  it("publishes a stable VAPID public key", async () => {
    const { t } = await setUp();
    const key = (await t.gql(`{ pushPublicKey }`)).data!.pushPublicKey as string;
    expect(Buffer.from(key, "base64url")).toHaveLength(65);
    const again = await startTestApi({ dataDir: t.dataDir, fake: t.fake });
    cleanups.push(() => again.close());
    expect((await again.gql(`{ pushPublicKey }`)).data!.pushPublicKey).toBe(key);
  });

  it("sends an encrypted, VAPID-signed push the browser can read", async () => {
    const { t, pushService, subscription, message } = await setUp();
    expect(await message("Morning · Today")).toBe(1);
    const [push] = pushService.received;
    expect(push!.path).toBe("/push/device-1");
    expect(push!.headers["content-encoding"]).toBe("aes128gcm");
    expect(push!.headers.ttl).toBe("86400");
    const vapidKey = (await t.gql(`{ pushPublicKey }`)).data!.pushPublicKey;
    expect(String(push!.headers.authorization)).toMatch(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${vapidKey}$`));
    const payload = subscription.decrypt(push!.body);
    expect(payload).toMatchObject({ title: "Morning · Today", body: "Morning · Today body", kind: "BRIEFING" });
    expect(payload.url).toBe(`/?message=${payload.tag}`);
  });

  it("holds pushes during quiet hours, lets urgent ones through, and sends one digest after", async () => {
    const { t, token, pushService, subscription, message, setTime } = await setUp("2026-06-01T23:00:00Z");
    expect(await message("Tomorrow")).toBe("held");
    expect(await message("Later")).toBe("held");
    expect(await message("Storm", true)).toBe(1);
    expect(pushService.received.map((push) => subscription.decrypt(push.body).title)).toEqual(["Storm"]);
    // The inbox has everything regardless.
    expect((await t.gql(`{ me { unreadCount } }`, {}, { token })).data!.me.unreadCount).toBe(3);

    setTime("2026-06-02T03:00:00Z");
    expect(await t.api.services.push.sendDigests()).toBe(0);
    setTime("2026-06-02T07:05:00Z");
    expect(await t.api.services.push.sendDigests()).toBe(1);
    expect(await t.api.services.push.sendDigests()).toBe(0);
    const digest = subscription.decrypt(pushService.received[1]!.body);
    expect(digest).toMatchObject({ title: "2 messages during quiet hours", body: "Tomorrow\nLater", kind: "DIGEST" });
  });

  it("sends nothing while push is off", async () => {
    const { t, token, pushService, message } = await setUp();
    await t.gql(`mutation { updateSettings(input: { pushEnabled: false }) { id } }`, {}, { token });
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
    const save = (variables: Record<string, string>) =>
      t.gql(`mutation ($e: String!, $k: String!, $a: String!) { savePushSubscription(endpoint: $e, p256dh: $k, auth: $a) }`, variables, { token });
    expect(codes(await save({ e: "http://push.example.com/x", k: good.p256dh, a: good.auth }))).toEqual(["BAD_USER_INPUT"]);
    expect(codes(await save({ e: good.endpoint, k: "short", a: good.auth }))).toEqual(["BAD_USER_INPUT"]);
    expect(codes(await save({ e: good.endpoint, k: good.p256dh, a: "AAAA" }))).toEqual(["BAD_USER_INPUT"]);
    expect(codes(await t.gql(`mutation { savePushSubscription(endpoint: "https://push.example.com/x", p256dh: "x", auth: "y") }`))).toEqual([
      "UNAUTHENTICATED",
    ]);
  });
});
