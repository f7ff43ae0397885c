import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { CloseIcon } from "~/components/icons";
import type { OverlayName } from "~/lib/overlays/registry";

/** An overlay's title (it names the dialog: `overlay-{name}-title`) and its close button. */
export function OverlayHeader({ name, title, close }: { name: OverlayName; title: ReactNode; close: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="flex items-start justify-between gap-4">
      <h2 id={`overlay-${name}-title`} className="text-lg font-semibold">
        {title}
      </h2>
      <button type="button" onClick={close} aria-label={t("overlay.close")} className="icon-button">
        <CloseIcon />
      </button>
    </div>
  );
}

/** A field's problem, announced, and referenced by the field's aria-describedby (`id`). */
export function FieldError({ id, message }: { id: string; message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="text-sm text-red-700 dark:text-red-300">
      {message}
    </p>
  );
}
