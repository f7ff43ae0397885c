import { afterEach, describe, expect, it, vi } from "vitest";
import { PRIVATE_CACHES } from "~/lib/pwa/cache-names";
import { replaceOfflinePages } from "~/lib/pwa/offline-caches";
import { isOfflineCopyRequest } from "~/lib/pwa/offline-copy";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("replaceOfflinePages (log in / log out)", () => {
  it("drops every cache of the previous session's pages and data", async () => {
    const deleted: string[] = [];
    vi.stubGlobal("caches", { delete: async (name: string) => (deleted.push(name), true) });
    vi.stubGlobal("navigator", {});
    await replaceOfflinePages();
    expect(deleted.sort()).toEqual([...PRIVATE_CACHES].sort());
  });

  it("logs a cache the browser will not drop instead of failing the log in or out", async () => {
    vi.stubGlobal("caches", { delete: () => Promise.reject(new Error("storage is locked")) });
    vi.stubGlobal("navigator", {});
    const warned = vi.spyOn(console, "warn").mockImplementation(() => {});
    await expect(replaceOfflinePages()).resolves.toBeUndefined();
    expect(warned).toHaveBeenCalledWith("Could not drop the previous session's offline pages:", expect.any(Error));
  });

  it("puts the new session's pages in place of the cached ones even when a cache will not drop", async () => {
    const added: string[] = [];
    vi.stubGlobal("caches", {
      delete: () => Promise.reject(new Error("storage is locked")),
      open: async () => ({
        // Marked as copies, so the server leaves a flash toast for the page the user sees.
        add: async (request: Request) => void added.push(isOfflineCopyRequest(request) ? new URL(request.url).pathname : "unmarked"),
      }),
    });
    vi.stubGlobal("location", { href: "https://weatherbot.test/settings" });
    vi.stubGlobal("navigator", { serviceWorker: { controller: {} } });
    vi.spyOn(console, "warn").mockImplementation(() => {});
    await replaceOfflinePages();
    await vi.waitFor(() => expect(added.sort()).toEqual(["/", "/settings"]));
  });
});
