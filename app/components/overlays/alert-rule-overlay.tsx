import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "~/lib/i18n/use-translation";
import { useMutation } from "urql";
import { useQuery } from "~/lib/graphql/use-query";
import { aqiScaleLabel, displayThreshold, thresholdUnit } from "~/lib/alert-units";
import { formatWhen, useDisplaySettings, type DisplaySettings } from "~/lib/display-settings";
import { ALERT_RULES_QUERY, PLACES_QUERY, type CompleteAlertRuleInput as AlertRuleInput } from "~/lib/graphql/documents";
import { PREVIEW_ALERT_RULE_QUERY, SAVE_ALERT_RULE_MUTATION } from "~/lib/graphql/later-documents";
import { ALERT_METRICS, WEEKDAYS } from "~/shared/enum-values";
import { formatMinutes, formatPrecipitation } from "~/shared/units";
import type { AlertMetric, Condition } from "~/shared/schema-enums.generated";
import { errorNotice } from "~/lib/graphql/error-notice";
import { apiIssues, fieldErrors, issueMessage, type FieldErrors } from "~/lib/forms/field-errors";
import { alertRuleInput } from "~/shared/inputs/alert-rule";
import { checkInput, type InputIssue, type InputIssueCode } from "~/shared/inputs/issues";
import { SILENT_OPERATION } from "~/lib/graphql/install-browser";
import { CheckboxChoices, Field, FieldError, OverlayHeader, WeekdayChoices } from "~/components/ui/form-parts";
import type { OverlayProps } from "~/lib/overlays/registry";
import { showToast } from "~/lib/toast/toast-store";
import { useDebouncedValue } from "~/lib/use-debounced-value";

const WATCHED_CONDITIONS: Condition[] = [
  "THUNDERSTORM",
  "THUNDERSTORM_WITH_HAIL",
  "SNOW",
  "FREEZING_RAIN",
  "FREEZING_DRIZZLE",
  "FOG",
  "RAIN_SHOWERS",
];
const LOOKAHEAD_HOURS = [6, 12, 24, 48, 72];
/** How far ahead a rain-soon rule can look: quarter hours, then half hours up to the nowcast's 2 hours. */
const RAIN_SOON_MINUTES = [15, 30, 45, 60, 90, 120];
const PREVIEW_DEBOUNCE_MS = 300;

type Draft = Omit<AlertRuleInput, "threshold"> & { threshold: string };
type Field = "name" | "threshold" | "conditions" | "activeDays" | "activeHours";
/** Where each part of the input is shown: both ends of the active hours under the pair. */
const FIELDS: Record<string, Field> = {
  name: "name",
  threshold: "threshold",
  conditions: "conditions",
  activeDays: "activeDays",
  activeFrom: "activeHours",
  activeTo: "activeHours",
};
/** What is only missing yet is said on saving; the preview says only what is wrong (a threshold out of range). */
const SAID_ON_SAVE: ReadonlySet<InputIssueCode> = new Set([
  "ALERT_RULE_NAME_REQUIRED",
  "THRESHOLD_REQUIRED",
  "CONDITIONS_REQUIRED",
  "DAYS_REQUIRED",
  "ACTIVE_HOURS_INCOMPLETE",
]);

/** The input the API takes: the threshold turned back into metric (null when it is not a number), none for weather kinds. */
function toInput(draft: Draft, settings: DisplaySettings): AlertRuleInput {
  const isCondition = draft.metric === "CONDITION";
  const value = Number(draft.threshold.replace(",", "."));
  const typed = draft.threshold.trim() !== "" && Number.isFinite(value);
  return {
    ...draft,
    threshold: isCondition || !typed ? null : Math.round(thresholdUnit(draft.metric, settings).toMetric(value) * 100) / 100,
    conditions: isCondition ? draft.conditions : null,
  };
}

/**
 * A threshold's range in the units the user sees it in (the schema's is metric), rounded
 * inwards as the field shows numbers (tenths below 10): every value it names is accepted.
 */
function thresholdParams(input: AlertRuleInput, settings: DisplaySettings) {
  const unit = thresholdUnit(input.metric, settings);
  const inwards = (metric: number, round: (value: number) => number) => {
    const value = unit.fromMetric(metric);
    const step = Math.abs(value) < 10 ? 10 : 1;
    // Float noise (99.9999…) is the value itself.
    return round(Number((value * step).toFixed(6))) / step;
  };
  return (issue: InputIssue) =>
    issue.field === "threshold" && issue.params
      ? { min: inwards(Number(issue.params.min), Math.ceil), max: inwards(Number(issue.params.max), Math.floor) }
      : undefined;
}

/**
 * When the rule would fire within its own look-ahead (`hours`), which the API also keeps to; a
 * rain-soon rule, within its minutes (its peak is the rain of the wettest quarter hour).
 */
function Preview({
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
  const when = (iso: string) => formatWhen(iso, settings);
  const unit = input ? thresholdUnit(input.metric, settings, aqiScaleLabel(t)) : null;
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
  else if (!preview.data || preview.fetching || settledText !== current)
    body = <p className="text-sm text-muted">{t("alerts.form.previewLoading")}</p>;
  else if (preview.data.previewAlertRule.length === 0)
    body = (
      <p className="text-sm">
        {rainSoon ? t("alerts.form.previewRainSoonNone", { minutes: rainSoon }) : t("alerts.form.previewNone", { hours })}
      </p>
    );
  else
    body = (
      <ul className="flex flex-col gap-1 text-sm">
        {preview.data.previewAlertRule.map((match) => (
          <li key={match.id}>
            {t("alerts.form.previewMatch", {
              place: match.place.label,
              from: when(match.from),
              to: when(match.to),
              // A shower's wettest quarter hour as its message words it (0.05 in, where thresholds round to tenths).
              peak: rainSoon
                ? formatPrecipitation(match.peakValue, settings)
                : input!.metric === "CONDITION"
                  ? ""
                  : `${displayThreshold(input!.metric, match.peakValue, settings)} ${unit!.label}`.trim(),
            })}
          </li>
        ))}
      </ul>
    );
  return (
    <section aria-label={title} aria-live="polite" className="rounded-md border border-default bg-muted p-3" data-testid="rule-preview">
      <h3 className="mb-1 text-sm font-medium">{title}</h3>
      {body}
    </section>
  );
}

/** Creates an alert rule (no `params.id`) or edits one, with a live preview of when it would fire. */
export default function AlertRuleOverlay({ close, params }: OverlayProps) {
  const { t } = useTranslation();
  const id = useId();
  const settings = useDisplaySettings();
  const [rules] = useQuery({ query: ALERT_RULES_QUERY });
  const [places] = useQuery({ query: PLACES_QUERY });
  const existing = rules.data?.alertRules.find((rule) => rule.id === params.id);
  const placeList = places.data?.me?.places ?? [];
  const [draft, setDraft] = useState<Draft>(() =>
    existing
      ? {
          name: existing.name,
          enabled: existing.enabled,
          placeId: existing.place?.id ?? null,
          metric: existing.metric,
          comparator: existing.comparator,
          threshold: existing.threshold === null ? "" : String(displayThreshold(existing.metric, existing.threshold, settings)),
          conditions: existing.conditions,
          lookaheadHours: existing.lookaheadHours,
          urgent: existing.urgent,
          notifyAllClear: existing.notifyAllClear,
          cooldownHours: existing.cooldownHours,
          activeDays: existing.activeDays,
          activeFrom: existing.activeFrom,
          activeTo: existing.activeTo,
        }
      : {
          name: "",
          enabled: true,
          placeId: null,
          metric: "WIND_GUSTS",
          comparator: "AT_LEAST",
          threshold: String(displayThreshold("WIND_GUSTS", 60, settings)),
          conditions: ["THUNDERSTORM"],
          lookaheadHours: 24,
          urgent: false,
          notifyAllClear: false,
          cooldownHours: 6,
          activeDays: [...WEEKDAYS],
          activeFrom: null,
          activeTo: null,
        },
  );
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [{ fetching }, saveRule] = useMutation(SAVE_ALERT_RULE_MUTATION);
  const change = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));
  const input = toInput(draft, settings);
  const checked = checkInput(alertRuleInput, input);
  const shown = { fields: FIELDS, params: thresholdParams(input, settings) };
  const problem = checked.ok ? undefined : checked.issues.find((issue) => !SAID_ON_SAVE.has(issue.code));
  const unit = thresholdUnit(draft.metric, settings, aqiScaleLabel(t));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!checked.ok) return setErrors(fieldErrors(checked.issues, t, shown));
    setErrors({});
    const result = await saveRule({ id: existing?.id, input: { ...input, name: checked.value.name } });
    if (result.error || !result.data) return setErrors(fieldErrors(apiIssues(result.error), t, shown));
    showToast({ title: t("alerts.saved", { name: result.data.saveAlertRule.name }), variant: "success" });
    close();
  }

  const error = (field: Field) => <FieldError id={`${id}-${field}-error`} message={errors[field]} />;

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
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-place`} className="font-medium">
            {t("alerts.form.place")}
          </label>
          <select
            id={`${id}-place`}
            className="input"
            value={draft.placeId ?? ""}
            onChange={(event) => change({ placeId: event.target.value || null })}
          >
            <option value="">{t("alerts.everyPlace")}</option>
            {placeList.map((place) => (
              <option key={place.id} value={place.id}>
                {place.label}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-metric`} className="font-medium">
            {t("alerts.form.metric")}
          </label>
          <select
            id={`${id}-metric`}
            className="input"
            value={draft.metric}
            onChange={(event) => {
              const metric = event.target.value as AlertMetric;
              change({ metric, threshold: metric === "RAIN_SOON" ? "30" : "" });
            }}
          >
            {ALERT_METRICS.map((metric) => (
              <option key={metric} value={metric}>
                {t(`alerts.metric.${metric}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      {draft.metric === "CONDITION" ? (
        <CheckboxChoices
          legend={t("alerts.form.conditions")}
          options={WATCHED_CONDITIONS}
          value={draft.conditions ?? []}
          onChange={(conditions) => change({ conditions })}
          label={(condition) => t(`weather.condition.${condition}`)}
          errorId={`${id}-conditions-error`}
          error={errors.conditions}
        />
      ) : draft.metric === "RAIN_SOON" ? (
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-threshold`} className="font-medium">
            {t("alerts.form.rainWithin")}
          </label>
          <select
            id={`${id}-threshold`}
            className="input sm:max-w-xs"
            value={draft.threshold}
            aria-invalid={errors.threshold ? true : undefined}
            aria-describedby={`${id}-rain-hint${errors.threshold ? ` ${id}-threshold-error` : ""}`}
            onChange={(event) => change({ threshold: event.target.value })}
          >
            {/* A rule saved through the API with another number of minutes keeps it. */}
            {[...new Set([...RAIN_SOON_MINUTES, Number(draft.threshold) || 30])]
              .sort((a, b) => a - b)
              .map((minutes) => (
                <option key={minutes} value={String(minutes)}>
                  {formatMinutes(minutes, settings.locale)}
                </option>
              ))}
          </select>
          <p id={`${id}-rain-hint`} className="text-sm text-muted">
            {t("alerts.form.rainSoonHint")}
          </p>
          {error("threshold")}
        </div>
      ) : (
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-comparator`} className="font-medium">
              {t("alerts.form.comparator")}
            </label>
            <select
              id={`${id}-comparator`}
              className="input"
              value={draft.comparator}
              onChange={(event) => change({ comparator: event.target.value as Draft["comparator"] })}
            >
              <option value="AT_LEAST">{t("alerts.comparator.AT_LEAST")}</option>
              <option value="AT_MOST">{t("alerts.comparator.AT_MOST")}</option>
            </select>
          </div>
          <Field
            id={`${id}-threshold`}
            label={t("alerts.form.threshold", { unit: unit.label || "–" })}
            error={errors.threshold}
            input={{ inputMode: "decimal", value: draft.threshold, onChange: (event) => change({ threshold: event.target.value }) }}
          />
        </div>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        {/* A rain-soon rule looks as far ahead as its minutes: the hours would say nothing. */}
        {draft.metric !== "RAIN_SOON" && (
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-lookahead`} className="font-medium">
              {t("alerts.form.lookahead")}
            </label>
            <select
              id={`${id}-lookahead`}
              className="input"
              value={draft.lookaheadHours}
              onChange={(event) => change({ lookaheadHours: Number(event.target.value) })}
            >
              {LOOKAHEAD_HOURS.map((hours) => (
                <option key={hours} value={hours}>
                  {t("alerts.form.lookaheadHours", { count: hours })}
                </option>
              ))}
            </select>
          </div>
        )}
        <Field
          id={`${id}-cooldown`}
          label={t("alerts.form.cooldown")}
          input={{
            type: "number",
            min: 0,
            max: 168,
            value: draft.cooldownHours,
            onChange: (event) => change({ cooldownHours: Math.max(0, Math.min(168, Math.round(Number(event.target.value) || 0))) }),
          }}
        />
      </div>
      <WeekdayChoices
        legend={t("alerts.form.activeDays")}
        value={draft.activeDays}
        onChange={(activeDays) => change({ activeDays })}
        errorId={`${id}-activeDays-error`}
        error={errors.activeDays}
      />
      <fieldset aria-describedby={`${id}-activeHours-hint${errors.activeHours ? ` ${id}-activeHours-error` : ""}`}>
        <legend className="mb-1 font-medium">{t("alerts.form.activeHours")}</legend>
        <p id={`${id}-activeHours-hint`} className="mb-2 text-sm text-muted">
          {t("alerts.form.activeHoursHint")}
        </p>
        <div className="flex flex-wrap items-end gap-4">
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-activeFrom`} className="text-sm">
              {t("alerts.form.activeFrom")}
            </label>
            <input
              id={`${id}-activeFrom`}
              type="time"
              className="input"
              value={draft.activeFrom ?? ""}
              aria-invalid={errors.activeHours && !draft.activeFrom ? true : undefined}
              onChange={(event) => change({ activeFrom: event.target.value || null })}
            />
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-activeTo`} className="text-sm">
              {t("alerts.form.activeTo")}
            </label>
            <input
              id={`${id}-activeTo`}
              type="time"
              className="input"
              value={draft.activeTo ?? ""}
              aria-invalid={errors.activeHours && !draft.activeTo ? true : undefined}
              onChange={(event) => change({ activeTo: event.target.value || null })}
            />
          </div>
        </div>
        {error("activeHours")}
      </fieldset>
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          className="accent-primary"
          checked={draft.urgent}
          onChange={(event) => change({ urgent: event.target.checked })}
        />
        {t("alerts.form.urgent")}
      </label>
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          className="accent-primary"
          checked={draft.notifyAllClear}
          onChange={(event) => change({ notifyAllClear: event.target.checked })}
        />
        {t("alerts.form.allClear")}
      </label>
      <Preview
        input={checked.ok ? input : null}
        problem={problem ? issueMessage(problem, t, shown.params) : null}
        hours={draft.lookaheadHours}
        settings={settings}
      />
      <div className="flex justify-end">
        <button type="submit" className="button" disabled={fetching}>
          {t("alerts.form.save")}
        </button>
      </div>
    </form>
  );
}
