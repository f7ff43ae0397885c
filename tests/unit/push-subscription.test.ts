import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PUSH_SUBSCRIBE_TIMEOUT_MS, subscribeToPush } from "~/lib/pwa/push-subscription";

const VAPID_KEY = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM";

/** A browser whose push service takes `subscribe` and never answers (the outside world, faked). */
function stubBrowserWithSilentPushService() {
  const late = { resolve: (_subscription: unknown) => {} };
  const subscribe = vi.fn(() => new Promise((resolve) => (late.resolve = resolve)));
  const registration = { active: {}, pushManager: { subscribe, getSubscription: async () => null } };
  vi.stubGlobal("navigator", { serviceWorker: { getRegistration: async () => registration, ready: Promise.resolve(registration) } });
  vi.stubGlobal("window", { PushManager: class {}, Notification: class {} });
  vi.stubGlobal("Notification", { permission: "granted" });
  return { subscribe, late };
}

describe("subscribing to push", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("gives up when the push service never answers, and drops a subscription that arrives too late", async () => {
    const { subscribe, late } = stubBrowserWithSilentPushService();
    let outcome: Awaited<ReturnType<typeof subscribeToPush>> | undefined;
    void subscribeToPush(VAPID_KEY).then((result) => (outcome = result));
    await vi.advanceTimersByTimeAsync(0);
    expect(subscribe).toHaveBeenCalledOnce();

    await vi.advanceTimersByTimeAsync(PUSH_SUBSCRIBE_TIMEOUT_MS - 1);
    expect(outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toEqual({ ok: false, reason: "timeout" });

    const unsubscribe = vi.fn(async () => true);
    late.resolve({ unsubscribe, toJSON: () => ({}) });
    await vi.advanceTimersByTimeAsync(0);
    expect(unsubscribe).toHaveBeenCalledOnce();
  });
});
