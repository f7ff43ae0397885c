import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useMutation } from "urql";
import { thresholdSummary } from "~/lib/alert-rule-summary";
import { useDisplaySettings } from "~/lib/display-settings";
import { ADD_ALERT_RULES_MUTATION } from "~/lib/graphql/later-documents";
import { FieldError, OverlayHeader } from "~/components/ui/form-parts";
import type { OverlayProps } from "~/lib/overlays/registry";
import { STARTER_RULES, starterRuleInput, type StarterRuleKey } from "~/lib/starter-rules";
import { showToast } from "~/lib/toast/toast-store";

/** A first set of alert rules in one step: the common ones, described in the user's units. */
export default function StarterRulesOverlay({ close }: OverlayProps) {
  const { t } = useTranslation();
  const settings = useDisplaySettings();
  const [chosen, setChosen] = useState<StarterRuleKey[]>(STARTER_RULES.filter((entry) => entry.checked).map((entry) => entry.key));
  const [error, setError] = useState<string | null>(null);
  const [{ fetching }, addRules] = useMutation(ADD_ALERT_RULES_MUTATION);

  function describe(entry: (typeof STARTER_RULES)[number]): string {
    const { rule } = entry;
    if (rule.metric === "CONDITION") return rule.conditions.map((condition) => t(`weather.condition.${condition}`)).join(", ");
    return thresholdSummary(rule, t, settings);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (chosen.length === 0) return setError(t("starterRules.none"));
    // One mutation for all of them: saved one by one, an engine pass between two saves would find some of them new
    // and the rest a pass later, and tell what is ahead in two summaries instead of one (issue 32). In the order
    // shown, which the rule list keeps.
    const inputs = STARTER_RULES.filter((entry) => chosen.includes(entry.key)).map((entry) =>
      starterRuleInput(entry.key, t(`starterRules.names.${entry.key}`)),
    );
    const result = await addRules({ inputs });
    // Nothing was saved: the choice stays open to try again (the failure has its own toast).
    if (result.error || !result.data) return;
    showToast({ title: t("starterRules.added", { count: result.data.addAlertRules.length }), variant: "success" });
    close();
  }

  return (
    <form className="flex flex-col gap-4 p-6" onSubmit={submit} noValidate>
      <OverlayHeader name="starter-rules" title={t("starterRules.title")} close={close} />
      <p className="text-muted">{t("starterRules.intro")}</p>
      <fieldset className="flex flex-col gap-2">
        <legend className="sr-only">{t("starterRules.title")}</legend>
        {STARTER_RULES.map((entry) => (
          <label key={entry.key} className="choice">
            <input
              type="checkbox"
              className="accent-primary"
              checked={chosen.includes(entry.key)}
              autoFocus={entry === STARTER_RULES[0]}
              data-autofocus={entry === STARTER_RULES[0] ? "" : undefined}
              onChange={(event) => {
                setError(null);
                setChosen((current) => (event.target.checked ? [...current, entry.key] : current.filter((key) => key !== entry.key)));
              }}
            />
            <span className="font-medium">{t(`starterRules.names.${entry.key}`)}</span>
            <span className="text-sm text-muted">{describe(entry)}</span>
          </label>
        ))}
      </fieldset>
      <FieldError id="starter-rules-error" message={error} />
      <div className="flex justify-end">
        <button type="submit" className="button" disabled={fetching}>
          {t("starterRules.add")}
        </button>
      </div>
    </form>
  );
}
