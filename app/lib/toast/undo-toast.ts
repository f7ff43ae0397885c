import { showToast } from "./toast-store";

/**
 * "X removed." with an Undo button: what removing a place, deleting a message or a
 * briefing says. Undo calls `restore` (the API keeps what was removed for 10 minutes);
 * success says `restoredTitle`, a failure is the client's usual error toast.
 */
export function showUndoToast({
  title,
  undoLabel,
  restore,
  restoredTitle,
}: {
  title: string;
  undoLabel: string;
  restore: () => Promise<{ error?: unknown }>;
  restoredTitle: string;
}): string {
  return showToast({
    title,
    variant: "success",
    action: {
      label: undoLabel,
      onAction: async () => {
        const restored = await restore();
        if (!restored.error) showToast({ title: restoredTitle, variant: "success" });
      },
    },
  });
}
