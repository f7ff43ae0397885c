import { useState, type FormEvent } from "react";
import { useMutation } from "urql";
import type { DisplaySettings } from "~/lib/display-settings";
import { apiIssues, fieldErrors, issueMessage, type FieldErrors } from "~/lib/forms/field-errors";
import type { AlertRuleFieldsFragment } from "~/lib/graphql/documents.generated";
import { SAVE_ALERT_RULE_MUTATION } from "~/lib/graphql/later-documents";
import { useTranslation } from "react-i18next";
import { showToast } from "~/lib/toast/toast-store";
import { alertRuleInput } from "~/shared/inputs/alert-rule";
import { checkInput } from "~/shared/inputs/issues";
import { FIELDS, firstDraft, SAID_ON_SAVE, thresholdParams, toInput, type Draft, type FormField } from "./alert-rule-draft";

/**
 * The rule editor's state: the draft and its changes, the input it makes and whether it holds, the field errors
 * shown, and saving (checked first; the API's refusals become field errors too; saved, a toast and the form closes).
 */
export function useAlertRuleForm(existing: AlertRuleFieldsFragment | undefined, settings: DisplaySettings, close: () => void) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Draft>(() => firstDraft(existing, settings));
  const [errors, setErrors] = useState<FieldErrors<FormField>>({});
  const [{ fetching }, saveRule] = useMutation(SAVE_ALERT_RULE_MUTATION);
  const change = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));
  const input = toInput(draft, settings);
  const checked = checkInput(alertRuleInput, input);
  const shown = { fields: FIELDS, params: thresholdParams(input, settings) };
  const problem = checked.ok ? undefined : checked.issues.find((issue) => !SAID_ON_SAVE.has(issue.code));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!checked.ok) return setErrors(fieldErrors(checked.issues, t, shown));
    setErrors({});
    const result = await saveRule({ id: existing?.id, input: { ...input, name: checked.value.name } });
    if (result.error || !result.data) return setErrors(fieldErrors(apiIssues(result.error), t, shown));
    showToast({ title: t("alerts.saved", { name: result.data.saveAlertRule.name }), variant: "success" });
    close();
  }

  return {
    draft,
    change,
    errors,
    /** The input the preview asks about: only one that holds. */
    checkedInput: checked.ok ? input : null,
    /** What is wrong with the draft now, in words (what is only missing yet waits for saving). */
    problem: problem ? issueMessage(problem, t, shown.params) : null,
    submit,
    saving: fetching,
  };
}
