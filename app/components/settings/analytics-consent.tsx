import { useState } from "react";
import { useTranslation } from "react-i18next";
import { setAnalyticsEnabled, type AnalyticsConfig } from "~/lib/analytics/analytics";
import { writeAnalyticsChoice } from "~/lib/analytics/consent";
import { showToast } from "~/lib/toast/toast-store";

/** The user's say over usage analytics; switching off stops sending before anything else goes out. */
export function AnalyticsConsent({ config, optedOut }: { config: AnalyticsConfig; optedOut: boolean }) {
  const { t } = useTranslation();
  const [enabled, setEnabled] = useState(!optedOut);
  return (
    <div className="flex flex-col gap-2">
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          className="accent-primary"
          checked={enabled}
          onChange={(event) => {
            const next = event.target.checked;
            setEnabled(next);
            writeAnalyticsChoice(next);
            void setAnalyticsEnabled(next, config);
            showToast({ title: next ? t("analytics.on") : t("analytics.off"), variant: "success" });
          }}
        />
        {t("analytics.label")}
      </label>
      <p className="text-sm text-muted">{config ? t("analytics.hint") : t("analytics.notConfigured")}</p>
    </div>
  );
}
