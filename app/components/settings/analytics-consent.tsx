import { useState } from "react";
import { useTranslation } from "react-i18next";
import { setAnalyticsEnabled, type AnalyticsConfig } from "~/lib/analytics/analytics";
import { writeAnalyticsChoice } from "~/lib/analytics/consent";
import { showToast } from "~/lib/toast/toast-store";

/**
 * The user's say over usage analytics: off until they tick it, and switching off stops
 * sending before anything else goes out. A server without analytics offers no switch at all.
 */
export function AnalyticsConsent({ config, optedIn }: { config: AnalyticsConfig; optedIn: boolean }) {
  const { t } = useTranslation();
  const [enabled, setEnabled] = useState(optedIn);
  if (!config) return <p className="text-sm text-muted">{t("analytics.notConfigured")}</p>;
  return (
    <div className="flex flex-col gap-2">
      <label className="flex min-h-11 items-center gap-2">
        <input
          type="checkbox"
          className="size-5 accent-primary"
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
      <p className="text-sm text-muted">{t("analytics.hint")}</p>
    </div>
  );
}
