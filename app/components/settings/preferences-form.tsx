import { useEffect, useId, useMemo, useState, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useMutation, useQuery } from "urql";
import { SETTINGS_QUERY, UPDATE_SETTINGS_MUTATION, type FullSettings } from "~/lib/graphql/documents";
import { canonicalTimeZone } from "~/lib/time-zone-name";
import { showToast } from "~/lib/toast/toast-store";

type Draft = Omit<FullSettings, "id" | "language" | "pushEnabled">;

function Choice<T extends string>({
  legend,
  name,
  value,
  options,
  onChange,
}: {
  legend: string;
  name: string;
  value: T;
  options: Array<{ value: T; label: string }>;
  onChange: (value: T) => void;
}) {
  return (
    <fieldset>
      <legend className="mb-2 font-medium">{legend}</legend>
      <div className="flex flex-wrap gap-2">
        {options.map((option) => (
          <label key={option.value} className="choice">
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
              className="accent-primary"
            />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function Field({ label, hint, error, children, id }: { label: string; hint?: string; error?: string; children: ReactNode; id: string }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-muted">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}

const timeZones = (): string[] => {
  try {
    return Intl.supportedValuesOf("timeZone");
  } catch {
    return [];
  }
};

/** Units, clock, time zone and quiet hours: saved together, applied across the app at once. */
export function PreferencesForm() {
  const { t } = useTranslation();
  const id = useId();
  const [settings] = useQuery({ query: SETTINGS_QUERY });
  const saved = settings.data?.me?.settings;
  const [draft, setDraft] = useState<Draft | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [deviceZone, setDeviceZone] = useState<string | null>(null);
  const [{ fetching }, updateSettings] = useMutation(UPDATE_SETTINGS_MUTATION);
  const zones = useMemo(timeZones, []);
  useEffect(() => setDeviceZone(Intl.DateTimeFormat().resolvedOptions().timeZone), []);
  if (!saved) return null;
  const value: Draft = draft ?? saved;
  const change = (patch: Partial<Draft>) => setDraft({ ...value, ...patch });

  async function submit(event: FormEvent) {
    event.preventDefault();
    // Any case will do ("europe/berlin"): the zone is saved, and shown, under its IANA name.
    const timeZone = value.timeZone === saved!.timeZone ? value.timeZone : canonicalTimeZone(value.timeZone);
    if (!timeZone) return setError(t("preferences.unknownTimeZone"));
    setError(undefined);
    const result = await updateSettings({
      input: {
        temperatureUnit: value.temperatureUnit,
        windSpeedUnit: value.windSpeedUnit,
        precipitationUnit: value.precipitationUnit,
        hour12: value.hour12,
        timeZone,
        quietHoursEnabled: value.quietHoursEnabled,
        quietFrom: value.quietFrom,
        quietTo: value.quietTo,
      },
    });
    if (result.error) {
      // Shown by the field too; the client has already raised a toast with the API's words.
      if (result.error.graphQLErrors[0]?.extensions?.field === "timeZone") setError(t("preferences.unknownTimeZone"));
      return;
    }
    setDraft(null);
    showToast({ title: t("preferences.saved"), variant: "success" });
  }

  const zoneId = `${id}-zone`;
  return (
    <form className="flex flex-col gap-5" onSubmit={submit} noValidate>
      <Choice
        legend={t("preferences.temperature")}
        name="temperatureUnit"
        value={value.temperatureUnit}
        options={[
          { value: "CELSIUS", label: t("preferences.celsius") },
          { value: "FAHRENHEIT", label: t("preferences.fahrenheit") },
        ]}
        onChange={(temperatureUnit) => change({ temperatureUnit })}
      />
      <Choice
        legend={t("preferences.wind")}
        name="windSpeedUnit"
        value={value.windSpeedUnit}
        options={[
          { value: "KMH", label: t("preferences.kmh") },
          { value: "MS", label: t("preferences.ms") },
          { value: "MPH", label: t("preferences.mph") },
          { value: "KN", label: t("preferences.kn") },
        ]}
        onChange={(windSpeedUnit) => change({ windSpeedUnit })}
      />
      <Choice
        legend={t("preferences.precipitation")}
        name="precipitationUnit"
        value={value.precipitationUnit}
        options={[
          { value: "MM", label: t("preferences.mm") },
          { value: "INCH", label: t("preferences.inch") },
        ]}
        onChange={(precipitationUnit) => change({ precipitationUnit })}
      />
      <Choice
        legend={t("preferences.clock")}
        name="hour12"
        value={value.hour12 ? "12" : "24"}
        options={[
          { value: "24", label: t("preferences.h24") },
          { value: "12", label: t("preferences.h12") },
        ]}
        onChange={(clock) => change({ hour12: clock === "12" })}
      />
      <Field id={zoneId} label={t("preferences.timeZone")} hint={t("preferences.timeZoneHint")} error={error}>
        <input
          id={zoneId}
          className="input"
          list={`${id}-zones`}
          value={value.timeZone}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={`${zoneId}-hint${error ? ` ${zoneId}-error` : ""}`}
          onChange={(event) => change({ timeZone: event.target.value })}
        />
        <datalist id={`${id}-zones`}>
          {zones.map((zone) => (
            <option key={zone} value={zone} />
          ))}
        </datalist>
        {deviceZone && deviceZone !== value.timeZone ? (
          <button type="button" className="link self-start text-sm" onClick={() => change({ timeZone: deviceZone })}>
            {t("preferences.useDeviceZone", { zone: deviceZone })}
          </button>
        ) : null}
      </Field>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 font-medium">{t("preferences.quietHours")}</legend>
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            className="accent-primary"
            checked={value.quietHoursEnabled}
            onChange={(event) => change({ quietHoursEnabled: event.target.checked })}
          />
          {t("preferences.quietHoursEnabled")}
        </label>
        <div className="flex flex-wrap gap-4">
          <label className="flex items-center gap-2">
            {t("preferences.quietFrom")}
            <input
              type="time"
              className="input"
              value={value.quietFrom}
              disabled={!value.quietHoursEnabled}
              onChange={(event) => change({ quietFrom: event.target.value })}
            />
          </label>
          <label className="flex items-center gap-2">
            {t("preferences.quietTo")}
            <input
              type="time"
              className="input"
              value={value.quietTo}
              disabled={!value.quietHoursEnabled}
              onChange={(event) => change({ quietTo: event.target.value })}
            />
          </label>
        </div>
        <p className="text-sm text-muted">{t("preferences.quietHint")}</p>
      </fieldset>
      <div>
        <button type="submit" className="button" disabled={fetching}>
          {t("preferences.save")}
        </button>
      </div>
    </form>
  );
}
