import { Suspense, useEffect, useRef } from "react";
import { usePageTranslation } from "~/lib/i18n/use-page-translation";
import { closeOverlay, useOpenOverlay } from "~/lib/overlays/overlay-store";
import { resolveOverlay } from "~/components/overlays/overlay-components";

/** While an overlay's code loads: its own component, so a page with no overlay open asks for no texts. */
function OverlayLoading() {
  const { t } = usePageTranslation();
  return <p className="p-6 text-muted">{t("loading.label")}</p>;
}

/**
 * Renders the open overlay in a native modal <dialog>: the browser traps focus,
 * closes it on Escape and gives focus back to the control that opened it.
 */
export function OverlayHost() {
  const open = useOpenOverlay();
  const name = open?.name ?? null;
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (name && !element.open) {
      element.showModal();
      // showModal focuses the first focusable element (Close). React's autoFocus only acts
      // when the overlay mounts, and a loaded overlay mounts before the dialog is shown.
      element.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    }
    if (!name && element.open) element.close();
  }, [name]);

  const Overlay = name ? resolveOverlay(name) : null;

  return (
    <dialog
      ref={dialog}
      data-overlay-host
      onClose={closeOverlay}
      aria-labelledby={name ? `overlay-${name}-title` : undefined}
      className={
        "overlay m-auto w-[min(32rem,calc(100vw-2rem))] rounded-xl border border-default bg-elevated p-0 text-default " +
        "shadow-2xl backdrop:bg-slate-950/50"
      }
    >
      {Overlay ? (
        <Suspense fallback={<OverlayLoading />}>
          <Overlay key={JSON.stringify(open?.params ?? {})} close={closeOverlay} params={open?.params ?? {}} />
        </Suspense>
      ) : null}
    </dialog>
  );
}
