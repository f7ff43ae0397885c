/** Constants of the notification system (docs/product-constants.md). */
export const TOAST_LIMITS = {
  maxVisible: 5,
  durationMs: 5000,
  /**
   * A toast with a button (Undo) stays twice as long: a keyboard user first has to reach it
   * with F8. Radix also holds it while it is hovered or focused.
   */
  actionDurationMs: 10_000,
  gapPx: 16,
  swipeThreshold: 50,
  hotkey: ["F8"],
  removeDelayMs: 200,
} as const;

export type ToastVariant = "info" | "success" | "error";

export type ToastInput = {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** Milliseconds; defaults to TOAST_LIMITS.durationMs. */
  duration?: number;
  /** One button in the toast (browser only, e.g. "Undo"); choosing it closes the toast. */
  action?: ToastAction;
};

export type ToastAction = { label: string; onAction: () => void };

export type Toast = Required<Pick<ToastInput, "title" | "variant">> &
  Pick<ToastInput, "description" | "duration" | "action"> & { id: string; open: boolean };

export function isToastInput(value: unknown): value is ToastInput {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate.title === "string" &&
    (candidate.description === undefined || typeof candidate.description === "string") &&
    (candidate.variant === undefined || ["info", "success", "error"].includes(candidate.variant as string))
  );
}
