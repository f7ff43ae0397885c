import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from "react";
import { whenBrowserIdle } from "~/lib/browser-idle";
import { toastStore } from "~/lib/toast/toast-store";

// Radix Toast is not needed to paint a page: it loads when the browser is idle, or at
// once when a toast is raised before that.
const RadixToaster = lazy(() => import("./toaster-radix"));

const hasToasts = () => toastStore.all().length > 0;
const serverHasToasts = () => false;

function useBrowserIdle(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => whenBrowserIdle(() => setIdle(true)), []);
  return idle;
}

export function Toaster() {
  const needed = useSyncExternalStore(toastStore.subscribe, hasToasts, serverHasToasts);
  const idle = useBrowserIdle();
  if (!needed && !idle) return null;
  return (
    <Suspense fallback={null}>
      <RadixToaster />
    </Suspense>
  );
}
