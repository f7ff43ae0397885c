import { useId } from "react";
import { useTranslation } from "react-i18next";
import { useQuery } from "urql";
import { useDisplaySettings } from "~/lib/display-settings";
import { ALERT_RULES_QUERY, PLACES_QUERY } from "~/lib/graphql/signed-in-documents";
import { Field, OverlayHeader, WeekdayChoices } from "~/components/ui/form-parts";
import type { OverlayProps } from "~/lib/overlays/registry";
import { ActiveHoursFields, LookaheadAndCooldownFields, NotifyChoices, PlaceAndMetricFields, ThresholdFields } from "./alert-rule-fields";
import { Preview } from "./alert-rule-preview";
import { useAlertRuleForm } from "./use-alert-rule-form";

/** Creates an alert rule (no `params.id`) or edits one, with a live preview of when it would fire. */
export default function AlertRuleOverlay({ close, params }: OverlayProps) {
  const { t } = useTranslation();
  const id = useId();
  const settings = useDisplaySettings();
  const [rules] = useQuery({ query: ALERT_RULES_QUERY });
  const [places] = useQuery({ query: PLACES_QUERY });
  const existing = rules.data?.alertRules.find((rule) => rule.id === params.id);
  const { draft, change, errors, checkedInput, problem, submit, saving } = useAlertRuleForm(existing, settings, close);
  const fields = { id, draft, change, errors };

  return (
    <form className="flex max-h-[85vh] flex-col gap-4 overflow-y-auto p-6" onSubmit={submit} noValidate>
      <OverlayHeader name="alert-rule" title={existing ? t("alerts.form.titleEdit") : t("alerts.form.titleNew")} close={close} />
      <Field
        id={`${id}-name`}
        label={t("alerts.form.name")}
        error={errors.name}
        input={{
          value: draft.name,
          maxLength: 60,
          autoFocus: true,
          "data-autofocus": "",
          onChange: (event) => change({ name: event.target.value }),
        }}
      />
      <PlaceAndMetricFields {...fields} places={places.data?.me?.places ?? []} />
      <ThresholdFields {...fields} settings={settings} />
      <LookaheadAndCooldownFields {...fields} />
      <WeekdayChoices
        legend={t("alerts.form.activeDays")}
        value={draft.activeDays}
        onChange={(activeDays) => change({ activeDays })}
        errorId={`${id}-activeDays-error`}
        error={errors.activeDays}
      />
      <ActiveHoursFields {...fields} />
      <NotifyChoices {...fields} />
      <Preview input={checkedInput} problem={problem} hours={draft.lookaheadHours} settings={settings} />
      <div className="flex justify-end">
        <button type="submit" className="button" disabled={saving}>
          {t("alerts.form.save")}
        </button>
      </div>
    </form>
  );
}
