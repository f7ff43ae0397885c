import { describe, expect, it, vi } from "vitest";
import { createBuildWatcher } from "~/lib/pwa/build-update";
import { createPwaStore, type BeforeInstallPromptEvent } from "~/lib/pwa/pwa-state";
import { claimForcedReload, RELOAD_MARKER_KEY, RELOAD_MARKER_TTL_MS } from "~/lib/pwa/reload-guard";
import { prefetchAllowed } from "~/lib/pwa/prefetch-policy";
import { checkForUpdate, UPDATE_CHECK_INTERVAL_MS } from "~/lib/pwa/update-check";

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
}

describe("the reload guard", () => {
  it("allows one forced reload, refuses another within 10 s, and allows again after", () => {
    const storage = memoryStorage();
    expect(RELOAD_MARKER_TTL_MS).toBe(10_000);
    expect(claimForcedReload(storage, 1_000_000)).toBe(true);
    expect(storage.getItem(RELOAD_MARKER_KEY)).toBe("1000000");
    expect(claimForcedReload(storage, 1_000_000 + 9_999)).toBe(false);
    expect(claimForcedReload(storage, 1_000_000 + 10_000)).toBe(true);
  });

  it("never forces a reload without sessionStorage (it could not stop a loop)", () => {
    const broken = {
      ...memoryStorage(),
      getItem: () => {
        throw new Error("SecurityError");
      },
    } as Storage;
    expect(claimForcedReload(broken, 5)).toBe(false);
  });
});

describe("the build watcher", () => {
  const answering = (body: unknown, status = 200) => vi.fn<typeof fetch>(async () => new Response(JSON.stringify(body), { status }));

  it("asks /builds/latest.json with a timestamp and stays current while the id matches", async () => {
    const fetchImpl = answering({ id: "build-1" });
    const watcher = createBuildWatcher("build-1", fetchImpl);
    expect(await watcher.check()).toBe(false);
    const [url, init] = fetchImpl.mock.calls[0]!;
    expect(String(url)).toMatch(/^\/builds\/latest\.json\?t=\d+$/);
    expect(init).toMatchObject({ cache: "no-store" });
    expect(watcher.isOutdated()).toBe(false);
  });

  it("is outdated once the server names another build, and stays so", async () => {
    const fetchImpl = answering({ id: "build-2" });
    const watcher = createBuildWatcher("build-1", fetchImpl);
    expect(await watcher.check()).toBe(true);
    fetchImpl.mockImplementation(async () => {
      throw new TypeError("Failed to fetch");
    });
    expect(await watcher.check()).toBe(true);
  });

  it("learns nothing from a failing or odd answer", async () => {
    for (const fetchImpl of [
      answering({ id: "x" }, 503),
      answering({ nope: 1 }),
      vi.fn<typeof fetch>(async () => {
        throw new TypeError("offline");
      }),
    ]) {
      const watcher = createBuildWatcher("build-1", fetchImpl);
      expect(await watcher.check()).toBe(false);
    }
  });
});

describe("the PWA state store", () => {
  function fakePrompt(outcome: "accepted" | "dismissed") {
    const prompt = vi.fn(async () => undefined);
    return {
      event: Object.assign(new Event("beforeinstallprompt"), {
        prompt,
        userChoice: Promise.resolve({ outcome }),
      }) as BeforeInstallPromptEvent,
      prompt,
    };
  }

  it("starts with every flag off", () => {
    expect(createPwaStore().get()).toEqual({
      registrationError: null,
      activated: false,
      updateNeeded: false,
      offlineReady: false,
      installPromptAvailable: false,
      installed: false,
    });
  });

  it("shows the install prompt once", async () => {
    const store = createPwaStore();
    const listener = vi.fn();
    store.subscribe(listener);
    const { event, prompt } = fakePrompt("accepted");
    store.offerInstall(event);
    expect(store.get().installPromptAvailable).toBe(true);
    expect(await store.promptInstall()).toBe("accepted");
    expect(await store.promptInstall()).toBe("unavailable");
    expect(prompt).toHaveBeenCalledTimes(1);
    expect(store.get().installPromptAvailable).toBe(false);
    expect(listener).toHaveBeenCalled();
  });

  it("drops the prompt once installed and ignores later ones", async () => {
    const store = createPwaStore();
    store.offerInstall(fakePrompt("dismissed").event);
    store.markInstalled();
    expect(store.get()).toMatchObject({ installed: true, installPromptAvailable: false });
    store.offerInstall(fakePrompt("dismissed").event);
    expect(store.get().installPromptAvailable).toBe(false);
    expect(await store.promptInstall()).toBe("unavailable");
  });

  it("applies a waiting update only when the user accepts", () => {
    const store = createPwaStore();
    const accept = vi.fn();
    store.applyUpdate();
    store.offerUpdate(accept);
    expect(store.get().updateNeeded).toBe(true);
    expect(accept).not.toHaveBeenCalled();
    store.applyUpdate();
    expect(accept).toHaveBeenCalledTimes(1);
  });
});

describe("the worker update check", () => {
  const registration = () => ({ update: vi.fn(async () => undefined as never) });

  it("runs every 3600 s: fetches /sw.js uncached, and a 200 counts as a check and asks the browser to compare", async () => {
    expect(UPDATE_CHECK_INTERVAL_MS).toBe(3_600_000);
    const fetchImpl = vi.fn<typeof fetch>(async () => new Response("self.x=1", { status: 200 }));
    const reg = registration();
    expect(await checkForUpdate(reg, fetchImpl, () => true)).toBe(true);
    expect(fetchImpl).toHaveBeenCalledWith("/sw.js", expect.objectContaining({ cache: "no-store" }));
    expect(reg.update).toHaveBeenCalledTimes(1);
  });

  it("counts the 200 without waiting for the browser's comparison, and a failed comparison is not thrown", async () => {
    const fetchImpl = async () => new Response("", { status: 200 });
    expect(await checkForUpdate({ update: () => new Promise<never>(() => undefined) }, fetchImpl, () => true)).toBe(true);
    expect(await checkForUpdate({ update: async () => Promise.reject(new Error("gone")) }, fetchImpl, () => true)).toBe(true);
  });

  it("does not check while offline, and a failed fetch or a non-200 is no check", async () => {
    const reg = registration();
    const fetchImpl = vi.fn<typeof fetch>(async () => new Response("", { status: 200 }));
    expect(await checkForUpdate(reg, fetchImpl, () => false)).toBe(false);
    expect(fetchImpl).not.toHaveBeenCalled();
    expect(
      await checkForUpdate(
        reg,
        async () => new Response("", { status: 503 }),
        () => true,
      ),
    ).toBe(false);
    expect(
      await checkForUpdate(
        reg,
        async () => {
          throw new TypeError("Failed to fetch");
        },
        () => true,
      ),
    ).toBe(false);
    expect(reg.update).not.toHaveBeenCalled();
  });
});

describe("the prefetch policy", () => {
  it("prefetches unless data saving is on or the connection is 2g", () => {
    expect(prefetchAllowed(undefined)).toBe(true);
    expect(prefetchAllowed({ effectiveType: "4g" })).toBe(true);
    expect(prefetchAllowed({ effectiveType: "3g", saveData: false })).toBe(true);
    expect(prefetchAllowed({ effectiveType: "4g", saveData: true })).toBe(false);
    expect(prefetchAllowed({ effectiveType: "2g" })).toBe(false);
    expect(prefetchAllowed({ effectiveType: "slow-2g" })).toBe(false);
  });
});
