import { TOAST_LIMITS, type Toast, type ToastInput } from "./toast";

type Listener = () => void;

/**
 * The browser's list of toasts. Anything may raise one with `showToast`; the
 * Toaster shows the first `maxVisible` open ones and the rest wait their turn. A
 * closed toast stays in the list for `removeDelayMs` so its exit animation can run.
 */
export function createToastStore(removeDelayMs: number = TOAST_LIMITS.removeDelayMs) {
  let toasts: Toast[] = [];
  let counter = 0;
  const listeners = new Set<Listener>();

  function emit(next: Toast[]) {
    toasts = next;
    for (const listener of listeners) listener();
  }

  return {
    show(input: ToastInput & { id?: string }): string {
      const id = input.id ?? `toast-${++counter}`;
      if (toasts.some((toast) => toast.id === id)) return id;
      emit([...toasts, { ...input, id, variant: input.variant ?? "info", open: true }]);
      return id;
    },
    dismiss(id: string) {
      if (!toasts.some((toast) => toast.id === id && toast.open)) return;
      emit(toasts.map((toast) => (toast.id === id ? { ...toast, open: false } : toast)));
      setTimeout(() => emit(toasts.filter((toast) => toast.id !== id)), removeDelayMs);
    },
    /** Open toasts that may be on screen now, oldest first. */
    visible(): Toast[] {
      return toasts.filter((toast) => toast.open).slice(0, TOAST_LIMITS.maxVisible);
    },
    all(): Toast[] {
      return toasts;
    },
    subscribe(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type ToastStore = ReturnType<typeof createToastStore>;

/** The page's one store. */
export const toastStore = createToastStore();

/** Raise a toast from anywhere in the browser. */
export function showToast(input: ToastInput): string {
  return toastStore.show(input);
}
