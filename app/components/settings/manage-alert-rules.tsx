import { useTranslation } from "react-i18next";
import { useMutation, useQuery } from "urql";
import { TrashIcon } from "~/components/icons";
import { Tooltip } from "~/components/ui/tooltip";
import { displayThreshold, thresholdUnit } from "~/lib/alert-units";
import { useDisplaySettings } from "~/lib/display-settings";
import { ALERT_RULES_QUERY, DELETE_ALERT_RULE_MUTATION, SAVE_ALERT_RULE_MUTATION, type AlertRule } from "~/lib/graphql/documents";
import { openOverlay } from "~/lib/overlays/overlay-store";
import { showToast } from "~/lib/toast/toast-store";
import { useOptimisticToggle } from "~/lib/use-optimistic-toggle";

const STATE_STYLE: Record<AlertRule["state"], string> = {
  ARMED: "bg-accented text-default",
  TRIGGERED: "bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100",
  SNOOZED: "bg-sky-100 text-sky-900 dark:bg-sky-900 dark:text-sky-100",
};

function RuleRow({ rule }: { rule: AlertRule }) {
  const { t, i18n } = useTranslation();
  const settings = useDisplaySettings();
  const [, saveRule] = useMutation(SAVE_ALERT_RULE_MUTATION);
  const [, deleteRule] = useMutation(DELETE_ALERT_RULE_MUTATION);
  const summary =
    rule.metric === "CONDITION"
      ? new Intl.ListFormat(i18n.language, { type: "disjunction" }).format((rule.conditions ?? []).map((condition) => t(`weather.condition.${condition}`)))
      : t("alerts.summary", {
          metric: t(`alerts.metric.${rule.metric}`),
          comparator: t(`alerts.comparator.${rule.comparator}`),
          threshold: `${displayThreshold(rule.metric, rule.threshold ?? 0, settings)} ${thresholdUnit(rule.metric, settings).label}`.trim(),
        });

  const [enabled, toggleEnabled] = useOptimisticToggle(rule.enabled, (next) => saveEnabled(next));
  function saveEnabled(enabled: boolean) {
    return saveRule({
      id: rule.id,
      input: {
        name: rule.name,
        enabled,
        placeId: rule.place?.id ?? null,
        metric: rule.metric,
        comparator: rule.comparator,
        threshold: rule.threshold,
        conditions: rule.conditions,
        lookaheadHours: rule.lookaheadHours,
        urgent: rule.urgent,
        notifyAllClear: rule.notifyAllClear,
        cooldownHours: rule.cooldownHours,
      },
    });
  }

  return (
    <li className="flex flex-wrap items-center gap-3 py-3" data-rule-id={rule.id}>
      <label className="flex items-center">
        <input type="checkbox" role="switch" className="size-5 accent-primary" checked={enabled} onChange={(event) => void toggleEnabled(event.target.checked)} />
        <span className="sr-only">{t("alerts.enabled", { name: rule.name })}</span>
      </label>
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2 font-medium">
          {rule.name}
          <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${STATE_STYLE[rule.state]}`}>{t(`alerts.state.${rule.state}`)}</span>
        </p>
        <p className="text-sm text-muted">
          {summary} · {rule.place?.label ?? t("alerts.everyPlace")}
        </p>
      </div>
      <div className="flex items-center gap-1">
        <button type="button" className="button-secondary px-3 py-1 text-sm" onClick={() => openOverlay("alert-rule", { id: rule.id })}>
          <span aria-hidden="true">{t("alerts.editButton")}</span>
          <span className="sr-only">{t("alerts.edit", { name: rule.name })}</span>
        </button>
        <Tooltip content={t("alerts.delete", { name: rule.name })}>
          <button
            type="button"
            className="icon-button"
            aria-label={t("alerts.delete", { name: rule.name })}
            onClick={async () => {
              const result = await deleteRule({ id: rule.id });
              if (!result.error) showToast({ title: t("alerts.deleted", { name: rule.name }), variant: "success" });
            }}
          >
            <TrashIcon />
          </button>
        </Tooltip>
      </div>
    </li>
  );
}

/** The user's alert rules: on/off, state, edit with a live preview, delete. */
export function ManageAlertRules() {
  const { t } = useTranslation();
  const [rules] = useQuery({ query: ALERT_RULES_QUERY });
  const list = rules.data?.alertRules ?? [];
  return (
    <div className="flex flex-col gap-3">
      {list.length === 0 ? (
        <p className="text-muted">{t("alerts.empty")}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-default" data-testid="alert-rules">
          {list.map((rule) => (
            <RuleRow key={rule.id} rule={rule} />
          ))}
        </ul>
      )}
      <div>
        <button type="button" className="button" onClick={() => openOverlay("alert-rule")}>
          {t("alerts.new")}
        </button>
      </div>
    </div>
  );
}
