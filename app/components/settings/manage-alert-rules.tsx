import { useTranslation } from "react-i18next";
import { useMutation, useQuery } from "urql";
import { TrashIcon } from "~/components/icons";
import { RowSwitch } from "~/components/ui/row-switch";
import { Tooltip } from "~/components/ui/tooltip";
import { thresholdSummary } from "~/lib/alert-rule-summary";
import { formatWhen, useDisplaySettings } from "~/lib/display-settings";
import { alertRuleInput } from "~/lib/graphql/documents";
import { ALERT_RULES_QUERY } from "~/lib/graphql/signed-in-documents";
import {
  DELETE_ALERT_RULE_MUTATION,
  RESUME_ALERT_RULE_MUTATION,
  SAVE_ALERT_RULE_MUTATION,
  SNOOZE_ALERT_RULE_MUTATION,
} from "~/lib/graphql/later-documents";
import type { AlertRuleFieldsFragment as AlertRule } from "~/lib/graphql/documents.generated";
import { openOverlay } from "~/lib/overlays/overlay-store";
import { showToast } from "~/lib/toast/toast-store";
import { useOptimisticToggle } from "~/lib/use-optimistic-toggle";

/** "Tue 9:00 AM" in the user's zone and clock. */

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
  const [, snoozeRule] = useMutation(SNOOZE_ALERT_RULE_MUTATION);
  const [, resumeRule] = useMutation(RESUME_ALERT_RULE_MUTATION);
  const snoozed = rule.state === "SNOOZED" && rule.snoozedUntil ? formatWhen(rule.snoozedUntil, settings) : null;
  const summary =
    rule.metric === "CONDITION"
      ? new Intl.ListFormat(i18n.language, { type: "disjunction" }).format(
          (rule.conditions ?? []).map((condition) => t(`weather.condition.${condition}`)),
        )
      : thresholdSummary(rule, t, settings);

  const [enabled, toggleEnabled] = useOptimisticToggle(rule.enabled, (next) => saveEnabled(next));
  async function snoozeOrResume() {
    if (snoozed) {
      const result = await resumeRule({ id: rule.id });
      if (!result.error) showToast({ title: t("alerts.resumed", { name: rule.name }), variant: "success" });
      return;
    }
    // For the API's default of 24 hours, by the server's clock.
    const result = await snoozeRule({ id: rule.id });
    const until = result.data?.snoozeAlertRule.snoozedUntil;
    if (until) showToast({ title: t("alerts.snoozed", { name: rule.name, time: formatWhen(until, settings) }), variant: "success" });
  }

  function saveEnabled(enabled: boolean) {
    return saveRule({ id: rule.id, input: { ...alertRuleInput(rule), enabled } });
  }

  return (
    <li className="settings-row" data-rule-id={rule.id}>
      <RowSwitch
        checked={enabled}
        onChange={(next) => void toggleEnabled(next)}
        name={t("alerts.enabled", { name: rule.name })}
        label={t("alerts.switchLabel")}
      />
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 font-medium">
          {rule.name}
          <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${STATE_STYLE[rule.state]}`}>{t(`alerts.state.${rule.state}`)}</span>
        </p>
        <p className="text-sm text-muted">
          {summary} · {rule.place?.label ?? t("alerts.everyPlace")}
          {snoozed ? ` · ${t("alerts.snoozedUntil", { time: snoozed })}` : null}
        </p>
      </div>
      <div className="settings-row-actions">
        <button type="button" className="button-secondary px-3 py-1 text-sm" onClick={() => void snoozeOrResume()}>
          <span aria-hidden="true">{snoozed ? t("alerts.resumeButton") : t("alerts.snoozeButton")}</span>
          <span className="sr-only">{snoozed ? t("alerts.resume", { name: rule.name }) : t("alerts.snooze", { name: rule.name })}</span>
        </button>
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

/** The user's alert rules: on/off, state, snooze for a day or resume, edit with a live preview, delete. */
export function ManageAlertRules() {
  const { t } = useTranslation();
  const [rules] = useQuery({ query: ALERT_RULES_QUERY });
  const list = rules.data?.alertRules ?? [];
  return (
    <div className="flex flex-col gap-3">
      {list.length === 0 ? (
        <p className="text-muted">{t("alerts.empty")}</p>
      ) : (
        <ul className="@container flex flex-col divide-y divide-default" data-testid="alert-rules">
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
