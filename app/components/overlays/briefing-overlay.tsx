import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useMutation, useQuery } from "urql";
import { PLACES_QUERY } from "~/lib/graphql/signed-in-documents";
import { BRIEFINGS_QUERY, MAIL_AVAILABLE_QUERY, SAVE_BRIEFING_MUTATION } from "~/lib/graphql/later-documents";
import type { BriefingInput } from "~/lib/graphql/documents.generated";
import { BRIEFING_PERIODS } from "~/shared/enum-values";
import { TimeSelect } from "~/components/ui/time-select";
import { Field, FieldError, OverlayHeader, WeekdayChoices } from "~/components/ui/form-parts";
import { apiIssues, fieldErrors, type FieldErrors } from "~/lib/forms/field-errors";
import { briefingInput } from "~/shared/inputs/briefing";
import { checkInput } from "~/shared/inputs/issues";
import type { OverlayProps } from "~/lib/overlays/registry";
import { showToast } from "~/lib/toast/toast-store";

const FIELDS = ["name", "placeIds", "days", "delivery"] as const;
type Errors = FieldErrors<(typeof FIELDS)[number]>;

/** Creates a briefing (no `params.id`) or edits the one named. */
export default function BriefingOverlay({ close, params }: OverlayProps) {
  const { t } = useTranslation();
  const id = useId();
  const [briefings] = useQuery({ query: BRIEFINGS_QUERY });
  const [places] = useQuery({ query: PLACES_QUERY });
  // Without mail (no SMTP on the server) a briefing cannot be emailed: the choice is shown, off, and says why.
  const [mail] = useQuery({ query: MAIL_AVAILABLE_QUERY });
  const mailAvailable = mail.data?.mailAvailable === true;
  const existing = briefings.data?.briefings.find((briefing) => briefing.id === params.id);
  const placeList = places.data?.me?.places ?? [];
  const [draft, setDraft] = useState<BriefingInput>(() =>
    existing
      ? {
          name: existing.name,
          enabled: existing.enabled,
          period: existing.period,
          time: existing.time,
          days: existing.days,
          placeIds: existing.places.map((place) => place.id),
          delivery: existing.delivery,
        }
      : {
          name: "",
          enabled: true,
          period: "TODAY",
          time: "07:00",
          days: ["MON", "TUE", "WED", "THU", "FRI"],
          placeIds: placeList.slice(0, 1).map((place) => place.id),
          // As every briefing came before there was a choice: to the inbox and by push.
          delivery: ["PUSH"],
        },
  );
  const [errors, setErrors] = useState<Errors>({});
  const [{ fetching }, saveBriefing] = useMutation(SAVE_BRIEFING_MUTATION);
  const change = (patch: Partial<BriefingInput>) => setDraft((current) => ({ ...current, ...patch }));
  const toggle = <T,>(list: T[], item: T) => (list.includes(item) ? list.filter((entry) => entry !== item) : [...list, item]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = checkInput(briefingInput, draft);
    if (!checked.ok) return setErrors(fieldErrors(checked.issues, t, { fields: FIELDS }));
    setErrors({});
    const delivery = (draft.delivery ?? []).filter((channel) => channel !== "EMAIL" || mailAvailable);
    const result = await saveBriefing({ id: existing?.id, input: { ...draft, name: checked.value.name, delivery } });
    if (result.error || !result.data) return setErrors(fieldErrors(apiIssues(result.error), t, { fields: FIELDS }));
    showToast({ title: t("briefings.saved", { name: result.data.saveBriefing.name }), variant: "success" });
    close();
  }

  const error = (field: keyof Errors) => <FieldError id={`${id}-${field}-error`} message={errors[field]} />;
  const delivery = draft.delivery ?? [];

  return (
    <form className="flex max-h-[85vh] flex-col gap-4 overflow-y-auto p-6" onSubmit={submit} noValidate>
      <OverlayHeader name="briefing" title={existing ? t("briefings.form.titleEdit") : t("briefings.form.titleNew")} close={close} />
      {placeList.length === 0 ? <p className="text-muted">{t("briefings.form.noPlaces")}</p> : null}
      <Field
        id={`${id}-name`}
        label={t("briefings.form.name")}
        error={errors.name}
        input={{
          value: draft.name,
          maxLength: 60,
          autoFocus: true,
          "data-autofocus": "",
          onChange: (event) => change({ name: event.target.value }),
        }}
      />
      <fieldset aria-describedby={errors.placeIds ? `${id}-placeIds-error` : undefined}>
        <legend className="mb-2 font-medium">{t("briefings.form.places")}</legend>
        <div className="flex flex-wrap gap-2">
          {placeList.map((place) => (
            <label key={place.id} className="choice">
              <input
                type="checkbox"
                className="accent-primary"
                checked={draft.placeIds.includes(place.id)}
                onChange={() => change({ placeIds: toggle(draft.placeIds, place.id) })}
              />
              {place.label}
            </label>
          ))}
        </div>
        {error("placeIds")}
      </fieldset>
      <div className="flex flex-wrap gap-4">
        <Field
          id={`${id}-period`}
          label={t("briefings.form.period")}
          select={{
            value: draft.period,
            onChange: (event) => change({ period: event.target.value as BriefingInput["period"] }),
            options: BRIEFING_PERIODS.map((period) => [period, t(`briefings.period.${period}`)] as const),
          }}
        />
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-time`} className="font-medium">
            {t("briefings.form.time")}
          </label>
          <TimeSelect id={`${id}-time`} value={draft.time} onChange={(time) => change({ time: time ?? draft.time })} />
        </div>
      </div>
      <WeekdayChoices
        legend={t("briefings.form.days")}
        value={draft.days}
        onChange={(days) => change({ days })}
        errorId={`${id}-days-error`}
        error={errors.days}
      />
      <fieldset aria-describedby={`${id}-delivery-hint${errors.delivery ? ` ${id}-delivery-error` : ""}`}>
        <legend className="mb-1 font-medium">{t("briefings.form.delivery")}</legend>
        <p id={`${id}-delivery-hint`} className="mb-2 text-sm text-muted">
          {t("briefings.form.deliveryHint")}
        </p>
        <div className="flex flex-wrap gap-2">
          <label className="choice">
            <input
              type="checkbox"
              className="accent-primary"
              checked={delivery.includes("PUSH")}
              onChange={() => change({ delivery: toggle(delivery, "PUSH") })}
            />
            {t("briefings.form.push")}
          </label>
          <label className="choice">
            <input
              type="checkbox"
              className="accent-primary"
              checked={mailAvailable && delivery.includes("EMAIL")}
              disabled={!mailAvailable}
              aria-describedby={mailAvailable ? undefined : `${id}-email-unavailable`}
              onChange={() => change({ delivery: toggle(delivery, "EMAIL") })}
            />
            {t("briefings.form.email")}
          </label>
        </div>
        {mailAvailable ? null : (
          <p id={`${id}-email-unavailable`} className="mt-2 text-sm text-muted">
            {t("briefings.form.emailUnavailable")}
          </p>
        )}
        {error("delivery")}
      </fieldset>
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          className="accent-primary"
          checked={draft.enabled !== false}
          onChange={(event) => change({ enabled: event.target.checked })}
        />
        {t("briefings.form.enabled")}
      </label>
      <div className="flex justify-end">
        <button type="submit" className="button" disabled={fetching || placeList.length === 0}>
          {t("briefings.form.save")}
        </button>
      </div>
    </form>
  );
}
