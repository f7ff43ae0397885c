import { describe, expect, it, vi } from "vitest";
import { installPushHandlers } from "~/service-worker/push-handlers";

/** A worker scope with what the handlers use: events, notifications, window clients. */
function fakeWorker(windows: Array<{ url: string }>) {
  const target = new EventTarget();
  const clients = windows.map((window) => ({ ...window, focus: vi.fn(async () => window), navigate: vi.fn(async () => window) }));
  const worker = Object.assign(target, {
    location: { origin: "https://weatherbot.example" },
    registration: { showNotification: vi.fn(async () => undefined) },
    clients: { matchAll: vi.fn(async () => clients), openWindow: vi.fn(async () => null) },
  });
  installPushHandlers(worker as unknown as ServiceWorkerGlobalScope);
  /** Dispatches an extendable event and waits for what it asked to wait for. */
  async function dispatch(type: string, fields: Record<string, unknown>) {
    const waits: Promise<unknown>[] = [];
    const event = Object.assign(new Event(type), { waitUntil: (promise: Promise<unknown>) => waits.push(promise) }, fields);
    target.dispatchEvent(event);
    await Promise.all(waits);
  }
  return { worker, clients, dispatch };
}

const clickOn = (url: string) => ({ notification: { data: { url }, close: vi.fn() } });

describe("the worker's push handlers", () => {
  it("shows a push as a notification tagged with its message, icon and link", async () => {
    const { worker, dispatch } = fakeWorker([]);
    const payload = { title: "Rain: Home", body: "From 14:00", tag: "message-1", url: "/?message=message-1" };
    await dispatch("push", { data: { json: () => payload } });
    expect(worker.registration.showNotification).toHaveBeenCalledWith("Rain: Home", {
      body: "From 14:00",
      tag: "message-1",
      renotify: false,
      icon: "/icons/icon-192.png",
      badge: "/icons/icon-192.png",
      data: { url: "/?message=message-1" },
    });
    // A tick's summary replaces the one before under its tag, and alerts again.
    const group = { title: "2 new messages", body: "Rain: Home\nGale: Home", tag: "weatherbot-messages", url: "/", kind: "GROUP" };
    await dispatch("push", { data: { json: () => group } });
    expect(worker.registration.showNotification).toHaveBeenLastCalledWith(
      "2 new messages",
      expect.objectContaining({ tag: "weatherbot-messages", renotify: true }),
    );
    // Garbage and links off the site show nothing, or link home.
    await dispatch("push", {
      data: {
        json: () => {
          throw new SyntaxError("not JSON");
        },
      },
    });
    await dispatch("push", { data: { json: () => ({ title: "Odd", url: "https://elsewhere.example/" }) } });
    expect(worker.registration.showNotification).toHaveBeenCalledTimes(3);
    expect(worker.registration.showNotification).toHaveBeenLastCalledWith(
      "Odd",
      expect.objectContaining({ tag: "Odd", data: { url: "/" } }),
    );
  });

  it("a click focuses an open window of the app and takes it to the message", async () => {
    const { worker, clients, dispatch } = fakeWorker([{ url: "https://other.example/" }, { url: "https://weatherbot.example/settings" }]);
    const click = clickOn("/?message=m2");
    await dispatch("notificationclick", click);
    expect(click.notification.close).toHaveBeenCalled();
    expect(clients[1]!.focus).toHaveBeenCalled();
    expect(clients[1]!.navigate).toHaveBeenCalledWith("https://weatherbot.example/?message=m2");
    expect(clients[0]!.navigate).not.toHaveBeenCalled();
    expect(worker.clients.openWindow).not.toHaveBeenCalled();
  });

  it("a click with no window of the app open opens one at the message", async () => {
    const { worker, dispatch } = fakeWorker([{ url: "https://other.example/" }]);
    await dispatch("notificationclick", clickOn("/?message=m3"));
    expect(worker.clients.openWindow).toHaveBeenCalledWith("https://weatherbot.example/?message=m3");
  });
});
