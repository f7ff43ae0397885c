import { useTranslation } from "react-i18next";
import { useQuery } from "urql";
import { aqiScaleLabel, formatThreshold } from "~/lib/alert-units";
import { formatWhen, type DisplaySettings } from "~/lib/display-settings";
import type { CompleteAlertRuleInput as AlertRuleInput } from "~/lib/graphql/documents";
import type { PreviewAlertRuleQuery } from "~/lib/graphql/documents.generated";
import { PREVIEW_ALERT_RULE_QUERY } from "~/lib/graphql/later-documents";
import { formatMinutes, formatPrecipitation } from "~/shared/units";
import { errorNotice } from "~/lib/graphql/error-notice";
import { apiIssues, issueMessage } from "~/lib/forms/field-errors";
import { SILENT_OPERATION } from "~/lib/graphql/install-browser";
import { useDebouncedValue } from "~/lib/use-debounced-value";
import { thresholdParams } from "./alert-rule-draft";

const PREVIEW_DEBOUNCE_MS = 300;

/** The API's preview of an input once it has settled (typing does not ask on every key); `settling` while it has not. */
function useSettledPreview(input: AlertRuleInput | null) {
  // Debounced as text: the input object is new on every render, its content is not.
  const current = JSON.stringify(input);
  const settledText = useDebouncedValue(current, PREVIEW_DEBOUNCE_MS);
  const settled = JSON.parse(settledText) as AlertRuleInput | null;
  const [preview] = useQuery({
    query: PREVIEW_ALERT_RULE_QUERY,
    variables: { input: settled! },
    pause: !settled,
    context: SILENT_OPERATION,
  });
  return { preview, settled, settling: settledText !== current };
}

/** Each window the rule would fire in: the place, from and to, and its peak as the rule's message formats it. */
function PreviewMatches({
  matches,
  input,
  rainSoon,
  settings,
}: {
  matches: PreviewAlertRuleQuery["previewAlertRule"];
  input: AlertRuleInput;
  rainSoon: string | null;
  settings: DisplaySettings;
}) {
  const { t } = useTranslation();
  const when = (iso: string) => formatWhen(iso, settings);
  return (
    <ul className="flex flex-col gap-1 text-sm">
      {matches.map((match) => (
        <li key={match.id}>
          {t("alerts.form.previewMatch", {
            place: match.place.label,
            from: when(match.from),
            to: when(match.to),
            // A shower's wettest quarter hour as its message formats it (0.05 in, where thresholds round to tenths).
            peak: rainSoon
              ? formatPrecipitation(match.peakValue, settings)
              : input.metric === "CONDITION"
                ? ""
                : formatThreshold(input.metric, match.peakValue, { ...settings, aqiScale: input.aqiScale }, aqiScaleLabel(t)),
          })}
        </li>
      ))}
    </ul>
  );
}

/**
 * When the rule would fire within its own look-ahead (`hours`), which the API also keeps to; a
 * rain-soon rule, within its minutes (its peak is the rain of the wettest quarter hour).
 */
export function Preview({
  input,
  problem,
  hours,
  settings,
}: {
  input: AlertRuleInput | null;
  problem: string | null;
  hours: number;
  settings: DisplaySettings;
}) {
  const { t } = useTranslation();
  const rainSoon = input?.metric === "RAIN_SOON" ? formatMinutes(input.threshold ?? 0, settings.locale) : null;
  const title = rainSoon ? t("alerts.form.previewRainSoon", { minutes: rainSoon }) : t("alerts.form.preview", { hours });
  const { preview, settled, settling } = useSettledPreview(input);
  const refused = apiIssues(preview.error)[0];
  let body;
  if (problem) body = <p className="text-sm text-red-700 dark:text-red-300">{problem}</p>;
  else if (!settled) body = null;
  else if (preview.error)
    body = (
      <p className="text-sm text-red-700 dark:text-red-300">
        {/* In the person's words: the API's message is a protocol text (it goes to the logs). */}
        {refused ? issueMessage(refused, t, thresholdParams(settled, settings)) : t(errorNotice(preview.error, navigator.onLine))}
      </p>
    );
  else if (!preview.data || preview.fetching || settling) body = <p className="text-sm text-muted">{t("alerts.form.previewLoading")}</p>;
  else if (preview.data.previewAlertRule.length === 0)
    body = (
      <p className="text-sm">
        {rainSoon ? t("alerts.form.previewRainSoonNone", { minutes: rainSoon }) : t("alerts.form.previewNone", { hours })}
      </p>
    );
  else body = <PreviewMatches matches={preview.data.previewAlertRule} input={input!} rainSoon={rainSoon} settings={settings} />;
  return (
    <section aria-label={title} aria-live="polite" className="rounded-md border border-default bg-muted p-3" data-testid="rule-preview">
      <h3 className="mb-1 text-sm font-medium">{title}</h3>
      {body}
    </section>
  );
}
