import { useTranslation } from "react-i18next";
import { CloseIcon } from "~/components/icons";
import type { OverlayProps } from "~/lib/overlays/registry";

export default function AboutOverlay({ close }: OverlayProps) {
  const { t } = useTranslation();
  return (
    <div className="p-6">
      <div className="flex items-start justify-between gap-4">
        <h2 id="overlay-about-title" className="text-lg font-semibold">
          {t("overlay.about.title")}
        </h2>
        <button type="button" onClick={close} aria-label={t("overlay.close")} className="icon-button" autoFocus data-autofocus="">
          <CloseIcon />
        </button>
      </div>
      <p className="mt-3 text-muted">{t("overlay.about.body")}</p>
      <p className="mt-4 font-mono text-xs text-muted">{t("overlay.about.build", { id: __BUILD_ID__ })}</p>
    </div>
  );
}
