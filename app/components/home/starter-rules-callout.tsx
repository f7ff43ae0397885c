import type { TFunction } from "i18next";
import { useQuery } from "urql";
import { ALERT_RULES_QUERY } from "~/lib/graphql/signed-in-documents";
import { openOverlay } from "~/lib/overlays/overlay-store";

/** While the bot watches for nothing, the home screen offers the starter rules (in the dashboard's `t`). */
export function StarterRulesCallout({ t }: { t: TFunction }) {
  const [rules] = useQuery({ query: ALERT_RULES_QUERY });
  if (!rules.data || rules.data.alertRules.length > 0) return null;
  return (
    <aside className="card flex flex-col gap-3 border-primary" aria-label={t("starterRules.title")}>
      <p>{t("starterRules.callout")}</p>
      <div>
        <button type="button" className="button" onClick={() => openOverlay("starter-rules")}>
          {t("starterRules.open")}
        </button>
      </div>
    </aside>
  );
}
