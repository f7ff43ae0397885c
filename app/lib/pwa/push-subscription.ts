/** Why this browser cannot take push notifications, or null when it can. */
export function pushUnsupportedReason(): "unsupported" | null {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window ? null : "unsupported";
}

function applicationServerKey(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .padEnd(Math.ceil(base64url.length / 4) * 4, "=");
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let index = 0; index < raw.length; index++) bytes[index] = raw.charCodeAt(index);
  return bytes;
}

export type PushKeys = { endpoint: string; p256dh: string; auth: string };

/** The active worker's registration, or null while none is active yet. */
async function activeRegistration(): Promise<ServiceWorkerRegistration | null> {
  const registration = await navigator.serviceWorker.getRegistration("/");
  return registration?.active ? registration : null;
}

export async function currentPushSubscription(): Promise<PushSubscription | null> {
  if (pushUnsupportedReason()) return null;
  return (await activeRegistration())?.pushManager.getSubscription() ?? null;
}

export type SubscribeOutcome =
  { ok: true; keys: PushKeys } | { ok: false; reason: "denied" | "no-worker" | "timeout" | "failed"; message?: string };

/**
 * How long the browser's push service gets to hand out a subscription. Some never answer
 * (no push service reachable); the switch must not wait for them for minutes.
 */
export const PUSH_SUBSCRIBE_TIMEOUT_MS = 15_000;

/** How long a subscription waits for the service worker to be active before saying it is still starting. */
const WORKER_READY_TIMEOUT_MS = 10_000;

const TIMED_OUT = Symbol("timed out");

function withinTimeout<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => (timer = setTimeout(() => resolve(TIMED_OUT), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Asks for permission and subscribes this browser with the server's VAPID key. */
export async function subscribeToPush(vapidPublicKey: string): Promise<SubscribeOutcome> {
  const permission = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
  if (permission !== "granted") return { ok: false, reason: "denied" };
  // The worker may still be registering or activating (it starts when the page is idle): waited for a while.
  const registration = await withinTimeout(navigator.serviceWorker.ready, WORKER_READY_TIMEOUT_MS);
  if (registration === TIMED_OUT) return { ok: false, reason: "no-worker" };
  try {
    const pending = registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: applicationServerKey(vapidPublicKey),
    });
    const subscription = await withinTimeout(pending, PUSH_SUBSCRIBE_TIMEOUT_MS);
    if (subscription === TIMED_OUT) {
      // The user was told push stays off: a subscription that still turns up is dropped, not kept unknown to the server.
      pending
        .then(
          (late) => late.unsubscribe(),
          () => {},
        )
        .catch((error: unknown) => console.warn("Could not drop a push subscription that arrived too late:", error));
      return { ok: false, reason: "timeout" };
    }
    const json = subscription.toJSON();
    if (!json.endpoint || !json.keys?.p256dh || !json.keys.auth) return { ok: false, reason: "failed", message: "incomplete subscription" };
    return { ok: true, keys: { endpoint: json.endpoint, p256dh: json.keys.p256dh, auth: json.keys.auth } };
  } catch (error) {
    // The browser's own words ("Registration failed - permission denied") are for the console, not the person.
    const message = error instanceof Error ? error.message : String(error);
    console.warn("Push subscription failed:", message);
    return { ok: false, reason: "failed", message };
  }
}
