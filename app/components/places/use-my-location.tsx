import { useRef, useState } from "react";
import type { TFunction } from "i18next";
import { LocateIcon } from "~/components/icons";
import type { Coordinates } from "~/lib/geolocation";
import { showToast } from "~/lib/toast/toast-store";

/**
 * "Use my location": asks the browser for its position and hands the coordinates on. When
 * the browser refuses, times out or cannot tell, a toast says so and what to do instead.
 * Its texts come from its caller's `t`.
 */
export function UseMyLocationButton({ t, onLocated }: { t: TFunction; onLocated: (at: Coordinates) => Promise<void> | void }) {
  const [locating, setLocating] = useState(false);
  const busy = useRef(false);

  async function locate() {
    // Stays focusable while it works (aria-disabled, not disabled): a second press waits.
    if (busy.current) return;
    busy.current = true;
    setLocating(true);
    try {
      // Asking for the position is code for a press, not for the first paint.
      const { currentPosition, PositionError } = await import("~/lib/geolocation");
      const at = await currentPosition().catch((error: unknown) => {
        if (error instanceof PositionError) showToast({ title: t(`location.failed.${error.failure}`), variant: "error" });
        else throw error;
      });
      if (at) await onLocated(at);
    } finally {
      busy.current = false;
      setLocating(false);
    }
  }

  return (
    <button
      type="button"
      className="button-secondary inline-flex items-center gap-2"
      aria-disabled={locating || undefined}
      onClick={() => void locate()}
    >
      <LocateIcon />
      {locating ? t("location.locating") : t("location.use")}
    </button>
  );
}
