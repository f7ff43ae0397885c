import { useEffect, useRef } from "react";
import { usePageTranslation } from "~/lib/i18n/use-page-translation";
import { whenBrowserIdle } from "~/lib/browser-idle";
import { useConnectivity } from "~/lib/pwa/connectivity";
import { buildWatcher } from "~/lib/pwa/full-load";
import { pwaStore, usePwaState } from "~/lib/pwa/pwa-state";
import { toastStore } from "~/lib/toast/toast-store";
import { OfflineBanner } from "./offline-banner";

/**
 * Registers the worker once the browser is idle after hydration: workbox-window is not part of the first load, and
 * its evaluation and the worker's install would otherwise share hydration's tasks (issue 35's blocking time).
 */
function useServiceWorker() {
  useEffect(() => {
    // `npm run dev` has no worker: Vite serves modules the worker would freeze.
    if (import.meta.env.DEV) return;
    return whenBrowserIdle(
      () => void import("~/lib/pwa/register-worker").then(({ registerServiceWorker }) => registerServiceWorker(pwaStore)),
    );
  }, []);
}

/** A new worker is waiting: offer to reload into it, once per waiting worker. */
function useUpdateToast(updateNeeded: boolean) {
  const { t } = usePageTranslation();
  const shown = useRef(false);
  useEffect(() => {
    if (!updateNeeded || shown.current) return;
    shown.current = true;
    toastStore.show({
      title: t("pwa.updateReady"),
      variant: "info",
      duration: Number.POSITIVE_INFINITY,
      action: { label: t("pwa.updateAction"), onAction: () => pwaStore.applyUpdate() },
    });
  }, [updateNeeded, t]);
}

/** Learns of newer builds from the first idle moment; root's client middleware acts on it at the next navigation. */
function useBuildWatch() {
  useEffect(() => {
    if (!buildWatcher) return;
    const watcher = buildWatcher;
    return whenBrowserIdle(() => {
      void watcher.check();
      watcher.watch();
    });
  }, []);
}

/** The installed-app behaviours of every page: worker, updates, build changes, offline banner. */
export function PwaController() {
  const { updateNeeded } = usePwaState();
  const online = useConnectivity();
  useServiceWorker();
  useUpdateToast(updateNeeded);
  useBuildWatch();
  return online ? null : <OfflineBanner />;
}
