import { useEffect, useId, useMemo, useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { useMutation, useQuery } from "urql";
import { SETTINGS_QUERY, UPDATE_SETTINGS_MUTATION } from "~/lib/graphql/later-documents";
import type { SettingsFieldsFragment as FullSettings } from "~/lib/graphql/documents.generated";
import { apiIssues, fieldErrors } from "~/lib/forms/field-errors";
import { airQualityScale } from "~/shared/air-quality";
import { canonicalTimeZone } from "~/shared/time-zone";
import { checkInput } from "~/shared/inputs/issues";
import { settingsInput } from "~/shared/inputs/settings";
import { toastStore } from "~/lib/toast/toast-store";
import { Field } from "~/components/ui/form-parts";
import { TimeSelect } from "~/components/ui/time-select";

type Draft = Omit<FullSettings, "id" | "language" | "pushEnabled">;

function Choice<T extends string>({
  legend,
  name,
  value,
  options,
  onChange,
  hint,
}: {
  legend: string;
  name: string;
  value: T;
  options: Array<{ value: T; label: string }>;
  onChange: (value: T) => void;
  /** What else the choice changes, said under it. */
  hint?: string;
}) {
  const hintId = `${useId()}-hint`;
  return (
    <fieldset aria-describedby={hint ? hintId : undefined}>
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
      {hint ? (
        <p id={hintId} className="mt-2 text-sm text-muted">
          {hint}
        </p>
      ) : null}
    </fieldset>
  );
}

const timeZones = (): string[] => {
  try {
    return Intl.supportedValuesOf("timeZone");
  } catch {
    return [];
  }
};

type TextField = "timeZone";

/**
 * Units, clock, time zone and quiet hours, each applied across the app the moment it is
 * chosen, like every other setting: a choice (quiet times too) saves at once, a typed
 * time zone when the field is left or Enter is pressed.
 */
export function PreferencesForm() {
  const { t } = useTranslation();
  const id = useId();
  const [settings] = useQuery({ query: SETTINGS_QUERY });
  const saved = settings.data?.me?.settings;
  // What is typed but not yet committed, and what is on its way to the server.
  const [typed, setTyped] = useState<Partial<Pick<Draft, TextField>>>({});
  const [pending, setPending] = useState<Partial<Draft>>({});
  const [error, setError] = useState<string | undefined>();
  const [deviceZone, setDeviceZone] = useState<string | null>(null);
  const [, updateSettings] = useMutation(UPDATE_SETTINGS_MUTATION);
  const zones = useMemo(timeZones, []);
  useEffect(() => setDeviceZone(Intl.DateTimeFormat().resolvedOptions().timeZone), []);
  if (!saved) return null;
  const value: Draft = { ...saved, ...pending, ...typed };

  async function save(patch: Partial<Draft>) {
    setPending((current) => ({ ...current, ...patch }));
    // Offline the change is kept and applied here at once; its answer only comes once back online.
    if (!navigator.onLine) toastStore.show({ id: "preferences-saved-offline", title: t("preferences.savedOffline"), variant: "info" });
    const result = await updateSettings({ input: patch });
    setPending((current) => {
      const rest = { ...current };
      for (const key of Object.keys(patch) as Array<keyof Draft>) if (rest[key] === patch[key]) delete rest[key];
      return rest;
    });
    if (result.error) {
      // The client has already raised a toast; a refused zone is said at the field too.
      const refused = fieldErrors(apiIssues(result.error), t, { fields: ["timeZone"] }).timeZone;
      if (refused) setError(refused);
      return;
    }
    // One toast for a run of quick changes. The air-quality scale follows the temperature unit: a change of scale
    // changes the index's numbers and bands, so it is said, by name (issue 35).
    const scale = patch.temperatureUnit ? airQualityScale({ temperatureUnit: patch.temperatureUnit }) : null;
    const description =
      scale && scale !== airQualityScale(saved!) ? t("preferences.aqiScaleChanged", { scale: t(`alerts.aqiScale.${scale}`) }) : undefined;
    toastStore.show({ id: "preferences-saved", title: t("preferences.saved"), description, variant: "success" });
  }

  function commit(field: TextField) {
    const next = typed[field];
    if (next === undefined) return;
    setTyped(({ [field]: _committed, ...rest }) => rest);
    // Any case will do ("europe/berlin"): the zone is saved, and shown, under its IANA name.
    // The saved zone stays acceptable even if this browser does not know it.
    const checked = next === saved!.timeZone ? null : checkInput(settingsInput, { timeZone: next });
    if (checked && !checked.ok) {
      setTyped((current) => ({ ...current, timeZone: next }));
      return setError(fieldErrors(checked.issues, t, { fields: ["timeZone"] }).timeZone);
    }
    const zone = checked ? (canonicalTimeZone(next) ?? next) : next;
    setError(undefined);
    if (zone !== saved!.timeZone) void save({ timeZone: zone });
  }

  const commitOnEnter = (field: TextField) => (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    commit(field);
  };

  const zoneId = `${id}-zone`;
  return (
    <div className="flex flex-col gap-5">
      <Choice
        legend={t("preferences.temperature")}
        name="temperatureUnit"
        value={value.temperatureUnit}
        options={[
          { value: "CELSIUS", label: t("preferences.celsius") },
          { value: "FAHRENHEIT", label: t("preferences.fahrenheit") },
        ]}
        onChange={(temperatureUnit) => void save({ temperatureUnit })}
        hint={t("preferences.aqiFollows", { us: t("alerts.aqiScale.US"), european: t("alerts.aqiScale.EUROPEAN") })}
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
        onChange={(windSpeedUnit) => void save({ windSpeedUnit })}
      />
      <Choice
        legend={t("preferences.precipitation")}
        name="precipitationUnit"
        value={value.precipitationUnit}
        options={[
          { value: "MM", label: t("preferences.mm") },
          { value: "INCH", label: t("preferences.inch") },
        ]}
        onChange={(precipitationUnit) => void save({ precipitationUnit })}
      />
      <Choice
        legend={t("preferences.clock")}
        name="hour12"
        value={value.hour12 ? "12" : "24"}
        options={[
          { value: "24", label: t("preferences.h24") },
          { value: "12", label: t("preferences.h12") },
        ]}
        onChange={(clock) => void save({ hour12: clock === "12" })}
      />
      <Field
        id={zoneId}
        label={t("preferences.timeZone")}
        hint={t("preferences.timeZoneHint")}
        error={error}
        input={{
          list: `${id}-zones`,
          value: value.timeZone,
          autoComplete: "off",
          onChange: (event) => setTyped((current) => ({ ...current, timeZone: event.target.value })),
          onBlur: () => commit("timeZone"),
          onKeyDown: commitOnEnter("timeZone"),
        }}
      >
        <datalist id={`${id}-zones`}>
          {zones.map((zone) => (
            <option key={zone} value={zone} />
          ))}
        </datalist>
        {deviceZone && deviceZone !== value.timeZone ? (
          <button
            type="button"
            className="link self-start text-sm"
            onClick={() => {
              setTyped(({ timeZone: _typed, ...rest }) => rest);
              setError(undefined);
              void save({ timeZone: deviceZone });
            }}
          >
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
            onChange={(event) => void save({ quietHoursEnabled: event.target.checked })}
          />
          {t("preferences.quietHoursEnabled")}
        </label>
        <div className="flex flex-wrap gap-4">
          {(["quietFrom", "quietTo"] as const).map((end) => (
            <label key={end} className="flex items-center gap-2">
              {t(`preferences.${end}`)}
              <TimeSelect
                value={value[end]}
                hour12={value.hour12}
                disabled={!value.quietHoursEnabled}
                onChange={(time) => {
                  if (time && time !== value[end]) void save({ [end]: time });
                }}
              />
            </label>
          ))}
        </div>
        <p className="text-sm text-muted">{t("preferences.quietHint")}</p>
      </fieldset>
    </div>
  );
}
