import { useSyncExternalStore } from "react";

/** What the UI knows of the installed app and its service worker (docs/product-constants.md, "Installed app and offline"). */
export type PwaState = {
  registrationError: string | null;
  /** A worker is active for this page's scope. */
  activated: boolean;
  /** A new worker is waiting; the user can reload into it. */
  updateNeeded: boolean;
  /** The first worker finished installing: the app now opens offline. */
  offlineReady: boolean;
  installPromptAvailable: boolean;
  installed: boolean;
};

/** Chromium's install prompt event (not in TypeScript's DOM types). */
export type BeforeInstallPromptEvent = Event & {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: "accepted" | "dismissed" }>;
};

const INITIAL: PwaState = {
  registrationError: null,
  activated: false,
  updateNeeded: false,
  offlineReady: false,
  installPromptAvailable: false,
  installed: false,
};

export function createPwaStore() {
  let state = INITIAL;
  let deferredPrompt: BeforeInstallPromptEvent | null = null;
  let acceptUpdate: (() => void) | null = null;
  const listeners = new Set<() => void>();

  function set(patch: Partial<PwaState>) {
    state = { ...state, ...patch };
    for (const listener of listeners) listener();
  }

  return {
    get: () => state,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set,
    offerInstall(event: BeforeInstallPromptEvent) {
      if (state.installed) return;
      deferredPrompt = event;
      set({ installPromptAvailable: true });
    },
    /** Shows the browser's install prompt; it can be shown only once. */
    async promptInstall(): Promise<"accepted" | "dismissed" | "unavailable"> {
      const event = deferredPrompt;
      if (!event) return "unavailable";
      deferredPrompt = null;
      set({ installPromptAvailable: false });
      await event.prompt();
      return (await event.userChoice).outcome;
    },
    markInstalled() {
      deferredPrompt = null;
      set({ installed: true, installPromptAvailable: false });
    },
    offerUpdate(accept: () => void) {
      acceptUpdate = accept;
      set({ updateNeeded: true });
    },
    /** Activates the waiting worker; the page reloads once it takes control. */
    applyUpdate() {
      acceptUpdate?.();
    },
  };
}

export type PwaStore = ReturnType<typeof createPwaStore>;

/** The page's one store: the install prompt can fire before React hydrates, so it lives outside React. */
export const pwaStore = createPwaStore();

export function isStandalone(): boolean {
  return (
    window.matchMedia("(display-mode: standalone)").matches ||
    // iOS home-screen apps (not Safari in a tab).
    (navigator as Navigator & { standalone?: boolean }).standalone === true
  );
}

/** Catches the install prompt and the installed state from the first moment (entry.client). */
export function watchInstallability(store: PwaStore = pwaStore) {
  if (isStandalone()) store.markInstalled();
  window.addEventListener("beforeinstallprompt", (event) => {
    // Keep the browser's mini-infobar away: Settings offers the install button instead.
    event.preventDefault();
    store.offerInstall(event as BeforeInstallPromptEvent);
  });
  window.addEventListener("appinstalled", () => store.markInstalled());
}

export function usePwaState(): PwaState {
  return useSyncExternalStore(pwaStore.subscribe, pwaStore.get, () => INITIAL);
}
