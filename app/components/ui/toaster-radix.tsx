import * as RadixToast from "@radix-ui/react-toast";
import { useEffect, useState, useSyncExternalStore, type ReactNode } from "react";
import { createPortal } from "react-dom";
import { useTranslation } from "react-i18next";
import { CloseIcon } from "~/components/icons";
import { useOpenOverlay } from "~/lib/overlays/overlay-store";
import { keepClearOf, releaseRoom } from "~/lib/toast/keep-clear";
import { TOAST_LIMITS, type ToastVariant } from "~/lib/toast/toast";
import { toastStore } from "~/lib/toast/toast-store";

const variantClass: Record<ToastVariant, string> = {
  info: "border-l-info",
  success: "border-l-success",
  error: "border-l-error",
};

const HOTKEY_LABEL = TOAST_LIMITS.hotkey.join("+");

/**
 * While an overlay is open the toasts live inside its modal <dialog>: the browser puts the
 * dialog in the top layer and makes the rest of the page inert, so toasts anywhere else
 * would sit under its backdrop, out of reach of pointer and keyboard.
 */
function InOpenOverlay({ children }: { children: ReactNode }) {
  const overlay = useOpenOverlay();
  const dialog = overlay ? document.querySelector<HTMLDialogElement>("dialog[data-overlay-host]") : null;
  return dialog ? createPortal(children, dialog) : children;
}

/** Radix Toast over the toast store: the toasts at the bottom centre of the viewport. */
export default function RadixToaster() {
  const { t } = useTranslation();
  const toasts = useSyncExternalStore(toastStore.subscribe, toastStore.all, toastStore.all);
  const visible = new Set(toastStore.visible().map((toast) => toast.id));
  // A state, not a ref: the stack moves into an open overlay's dialog and back, a new element each time.
  const [stack, setStack] = useState<HTMLOListElement | null>(null);
  // Each time the stack grows (a toast came), what it would cover is lifted above it; empty, the page is as before.
  // Its size, not the toast list: Radix puts a toast in the stack a render after the store has it.
  useEffect(() => {
    if (!stack) return;
    let height = 0;
    const observer = new ResizeObserver(() => {
      const grew = stack.offsetHeight > height;
      height = stack.offsetHeight;
      if (stack.querySelector("li") === null) releaseRoom();
      else if (grew) keepClearOf(stack, document.querySelector("header"));
    });
    observer.observe(stack);
    return () => observer.disconnect();
  }, [stack]);

  return (
    <RadixToast.Provider
      duration={TOAST_LIMITS.durationMs}
      swipeDirection="down"
      swipeThreshold={TOAST_LIMITS.swipeThreshold}
      // Radix reads this before each toast it announces; the region's own name is the Viewport's.
      label={t("toast.announce")}
    >
      {toasts
        .filter((toast) => visible.has(toast.id) || !toast.open)
        .map((toast) => (
          <RadixToast.Root
            key={toast.id}
            open={toast.open}
            duration={toast.duration ?? (toast.action ? TOAST_LIMITS.actionDurationMs : TOAST_LIMITS.durationMs)}
            type={toast.variant === "error" ? "foreground" : "background"}
            onOpenChange={(open) => {
              if (!open) toastStore.dismiss(toast.id);
            }}
            data-variant={toast.variant}
            className={
              "toast pointer-events-auto flex w-full items-start gap-3 rounded-lg border border-l-4 border-default bg-elevated " +
              `p-4 text-default shadow-lg ${variantClass[toast.variant]}`
            }
          >
            <div className="min-w-0 flex-1">
              <RadixToast.Title className="font-semibold">{toast.title}</RadixToast.Title>
              {toast.description ? (
                <RadixToast.Description className="mt-1 text-sm text-muted">{toast.description}</RadixToast.Description>
              ) : null}
            </div>
            {toast.action ? (
              <RadixToast.Action
                // What a screen reader hears with the toast: how to get to its button.
                altText={t("toast.actionHint", { hotkey: HOTKEY_LABEL, action: toast.action.label })}
                onClick={toast.action.onAction}
                className="button-secondary shrink-0 px-3 py-1 text-sm"
              >
                {toast.action.label}
              </RadixToast.Action>
            ) : null}
            <RadixToast.Close
              aria-label={t("toast.close")}
              className="rounded p-1 text-muted hover:bg-accented focus-visible:outline-2 focus-visible:outline-focus"
            >
              <CloseIcon width={16} height={16} />
            </RadixToast.Close>
          </RadixToast.Root>
        ))}
      <InOpenOverlay>
        <RadixToast.Viewport
          ref={setStack}
          hotkey={[...TOAST_LIMITS.hotkey]}
          label={t("toast.region", { hotkey: HOTKEY_LABEL })}
          style={{ gap: TOAST_LIMITS.gapPx }}
          className="toast-viewport fixed bottom-0 left-1/2 z-50 flex w-full max-w-md -translate-x-1/2 flex-col p-4 outline-none"
        />
      </InOpenOverlay>
    </RadixToast.Provider>
  );
}
