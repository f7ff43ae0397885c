import { useTranslation } from "react-i18next";
import { aqiScaleLabel, thresholdUnit } from "~/lib/alert-units";
import { clockTimeText } from "~/lib/clock-times";
import { useDisplaySettings, type DisplaySettings } from "~/lib/display-settings";
import type { FieldErrors } from "~/lib/forms/field-errors";
import { ALERT_METRICS } from "~/shared/enum-values";
import { formatMinutes } from "~/shared/units";
import type { AlertMetric, Condition } from "~/shared/schema-enums.generated";
import { CheckboxChoices, Field, FieldError } from "~/components/ui/form-parts";
import { TimeSelect } from "~/components/ui/time-select";
import type { Draft, FormField } from "./alert-rule-draft";

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

/** What every part of the rule form gets: the form's id (its fields' ids start with it), the draft, its change and errors. */
export type RuleFieldsProps = {
  id: string;
  draft: Draft;
  change: (patch: Partial<Draft>) => void;
  errors: FieldErrors<FormField>;
};

/** Which places the rule watches (one, or every place), and what it watches there. */
export function PlaceAndMetricFields({
  id,
  draft,
  change,
  places,
}: Omit<RuleFieldsProps, "errors"> & { places: ReadonlyArray<{ id: string; label: string }> }) {
  const { t } = useTranslation();
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field
        id={`${id}-place`}
        label={t("alerts.form.place")}
        select={{
          value: draft.placeId ?? "",
          onChange: (event) => change({ placeId: event.target.value || null }),
          options: [["", t("alerts.everyPlace")], ...places.map((place) => [place.id, place.label] as const)],
        }}
      />
      <Field
        id={`${id}-metric`}
        label={t("alerts.form.metric")}
        select={{
          value: draft.metric,
          onChange: (event) => {
            const metric = event.target.value as AlertMetric;
            change({ metric, threshold: metric === "RAIN_SOON" ? "30" : "" });
          },
          options: ALERT_METRICS.map((metric) => [metric, t(`alerts.metric.${metric}`)] as const),
        }}
      />
    </div>
  );
}

/** When the rule fires, as its kind asks: weather kinds to look for, minutes until rain, or a comparator and threshold. */
export function ThresholdFields(props: RuleFieldsProps & { settings: DisplaySettings }) {
  const { t } = useTranslation();
  const { id, draft, change, errors } = props;
  if (draft.metric === "CONDITION")
    return (
      <CheckboxChoices
        legend={t("alerts.form.conditions")}
        options={WATCHED_CONDITIONS}
        value={draft.conditions ?? []}
        onChange={(conditions) => change({ conditions })}
        label={(condition) => t(`weather.condition.${condition}`)}
        errorId={`${id}-conditions-error`}
        error={errors.conditions}
      />
    );
  return draft.metric === "RAIN_SOON" ? <RainSoonField {...props} /> : <ComparedThresholdFields {...props} />;
}

/** A rain-soon rule's threshold: how many minutes ahead it looks for rain. */
function RainSoonField({ id, draft, change, errors, settings }: RuleFieldsProps & { settings: DisplaySettings }) {
  const { t } = useTranslation();
  // A rule saved through the API with another number of minutes keeps it.
  const minutes = [...new Set([...RAIN_SOON_MINUTES, Number(draft.threshold) || 30])].sort((a, b) => a - b);
  return (
    <Field
      id={`${id}-threshold`}
      label={t("alerts.form.rainWithin")}
      hint={t("alerts.form.rainSoonHint")}
      error={errors.threshold}
      select={{
        className: "sm:max-w-xs",
        value: draft.threshold,
        onChange: (event) => change({ threshold: event.target.value }),
        options: minutes.map((value) => [String(value), formatMinutes(value, settings.locale)] as const),
      }}
    />
  );
}

/** A measured kind's threshold: at least or at most, and the figure in the units the user reads. */
function ComparedThresholdFields({ id, draft, change, errors, settings }: RuleFieldsProps & { settings: DisplaySettings }) {
  const { t } = useTranslation();
  const unit = thresholdUnit(draft.metric, { ...settings, aqiScale: draft.aqiScale }, aqiScaleLabel(t));
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field
        id={`${id}-comparator`}
        label={t("alerts.form.comparator")}
        select={{
          value: draft.comparator,
          onChange: (event) => change({ comparator: event.target.value as Draft["comparator"] }),
          options: (["AT_LEAST", "AT_MOST"] as const).map((comparator) => [comparator, t(`alerts.comparator.${comparator}`)] as const),
        }}
      />
      <Field
        id={`${id}-threshold`}
        label={t("alerts.form.threshold", { unit: unit.label || "–" })}
        error={errors.threshold}
        input={{ inputMode: "decimal", value: draft.threshold, onChange: (event) => change({ threshold: event.target.value }) }}
      />
    </div>
  );
}

/** How far ahead the rule looks, and how long it waits before alerting again. */
export function LookaheadAndCooldownFields({ id, draft, change }: Omit<RuleFieldsProps, "errors">) {
  const { t } = useTranslation();
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {/* A rain-soon rule looks as far ahead as its minutes: the hours would say nothing. */}
      {draft.metric !== "RAIN_SOON" && (
        <Field
          id={`${id}-lookahead`}
          label={t("alerts.form.lookahead")}
          select={{
            value: draft.lookaheadHours,
            onChange: (event) => change({ lookaheadHours: Number(event.target.value) }),
            options: LOOKAHEAD_HOURS.map((hours) => [hours, t("alerts.form.lookaheadHours", { count: hours })] as const),
          }}
        />
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
  );
}

/** The hours of the day the rule is active in (both ends, or neither: all day). */
export function ActiveHoursFields({ id, draft, change, errors }: RuleFieldsProps) {
  const { t } = useTranslation();
  const settings = useDisplaySettings();
  return (
    <fieldset aria-describedby={`${id}-activeHours-hint${errors.activeHours ? ` ${id}-activeHours-error` : ""}`}>
      <legend className="mb-1 font-medium">{t("alerts.form.activeHours")}</legend>
      <p id={`${id}-activeHours-hint`} className="mb-2 text-sm text-muted">
        {t("alerts.form.activeHoursHint", {
          from: clockTimeText("22:00", settings.locale, settings.hour12),
          to: clockTimeText("06:00", settings.locale, settings.hour12),
        })}
      </p>
      <div className="flex flex-wrap items-end gap-4">
        <ActiveHourInput id={id} end="activeFrom" label={t("alerts.form.activeFrom")} draft={draft} change={change} errors={errors} />
        <ActiveHourInput id={id} end="activeTo" label={t("alerts.form.activeTo")} draft={draft} change={change} errors={errors} />
      </div>
      <FieldError id={`${id}-activeHours-error`} message={errors.activeHours} />
    </fieldset>
  );
}

/** One end of the active hours (marked invalid while the pair is and this end is the one missing). */
function ActiveHourInput({ id, end, label, draft, change, errors }: RuleFieldsProps & { end: "activeFrom" | "activeTo"; label: string }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={`${id}-${end}`} className="text-sm">
        {label}
      </label>
      <TimeSelect
        id={`${id}-${end}`}
        value={draft[end] ?? null}
        none={t("alerts.form.noTime")}
        aria-invalid={errors.activeHours && !draft[end] ? true : undefined}
        onChange={(time) => change({ [end]: time })}
      />
    </div>
  );
}

/** Whether the rule's alerts are urgent (pushed in quiet hours too), and whether it says when a window is over. */
export function NotifyChoices({ draft, change }: Pick<RuleFieldsProps, "draft" | "change">) {
  const { t } = useTranslation();
  return (
    <>
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
    </>
  );
}
