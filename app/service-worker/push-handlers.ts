/** What the server's push service sends (app/api/bot/push.server.ts PushPayload). */
type PushPayload = { title: string; body: string; tag: string; url: string; kind?: string };

const ICON = "/icons/icon-192.png";

function parsePayload(event: PushEvent): PushPayload | null {
  try {
    const data = event.data?.json() as Partial<PushPayload> | undefined;
    if (!data || typeof data.title !== "string") return null;
    return {
      title: data.title,
      body: typeof data.body === "string" ? data.body : "",
      tag: typeof data.tag === "string" ? data.tag : data.title,
      url: typeof data.url === "string" && data.url.startsWith("/") ? data.url : "/",
      kind: data.kind,
    };
  } catch {
    return null;
  }
}

/**
 * The bot's pushes as system notifications: one per message (its id as the tag, so a
 * repeat replaces rather than stacks), or a tick's summary of several; a click focuses an open window of the app and
 * takes it to the message, or opens one.
 */
export function installPushHandlers(worker: ServiceWorkerGlobalScope) {
  worker.addEventListener("push", (event) => {
    const payload = parsePayload(event);
    if (!payload) return;
    // `renotify` is in the Notifications standard and Chromium, not yet in TypeScript's DOM types.
    const options: NotificationOptions & { renotify: boolean } = {
      body: payload.body,
      tag: payload.tag,
      // A tick's summary replaces the one before under its tag: it is news again, so it alerts again.
      renotify: payload.kind === "GROUP",
      icon: ICON,
      badge: ICON,
      data: { url: payload.url },
    };
    event.waitUntil(worker.registration.showNotification(payload.title, options));
  });

  worker.addEventListener("notificationclick", (event) => {
    event.notification.close();
    const target = new URL((event.notification.data as { url?: string } | null)?.url ?? "/", worker.location.origin).href;
    event.waitUntil(
      (async () => {
        const windows = await worker.clients.matchAll({ type: "window", includeUncontrolled: true });
        const open = windows.find((client) => new URL(client.url).origin === worker.location.origin);
        if (open) {
          // Focusing needs the click's user activation; taking the window to the message does not.
          await open.focus().catch(() => undefined);
          await open.navigate(target).catch(() => undefined);
          return;
        }
        await worker.clients.openWindow(target);
      })(),
    );
  });
}
