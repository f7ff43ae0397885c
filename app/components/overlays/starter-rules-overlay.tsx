import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useMutation } from "urql";
import { thresholdSummary } from "~/lib/alert-rule-summary";
import { useDisplaySettings } from "~/lib/display-settings";
import { SAVE_ALERT_RULE_MUTATION } from "~/lib/graphql/later-documents";
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
  const [{ fetching }, saveRule] = useMutation(SAVE_ALERT_RULE_MUTATION);

  function describe(entry: (typeof STARTER_RULES)[number]): string {
    const { rule } = entry;
    if (rule.metric === "CONDITION") return rule.conditions.map((condition) => t(`weather.condition.${condition}`)).join(", ");
    return thresholdSummary(rule, t, settings);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (chosen.length === 0) return setError(t("starterRules.none"));
    let added = 0;
    // One after another: the cached list grows in the order shown.
    for (const key of chosen) {
      const result = await saveRule({ input: starterRuleInput(key, t(`starterRules.names.${key}`)) });
      if (!result.error) added++;
    }
    if (added > 0) showToast({ title: t("starterRules.added", { count: added }), variant: "success" });
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
