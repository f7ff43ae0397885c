import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { useMutation } from "urql";
import { describeLocation, LocationSearch } from "~/components/places/location-search";
import { ADD_PLACE_MUTATION } from "~/lib/graphql/later-documents";
import type { SearchLocationsQuery } from "~/lib/graphql/documents.generated";
import { Field, FieldError, OverlayHeader } from "~/components/ui/form-parts";
import { apiIssues, fieldErrors, type FieldErrors } from "~/lib/forms/field-errors";
import { placeHref } from "~/lib/open-place";
import { checkInput } from "~/shared/inputs/issues";
import { addPlaceInput } from "~/shared/inputs/place";
import type { OverlayProps } from "~/lib/overlays/registry";
import { showToast } from "~/lib/toast/toast-store";

/** Where the input's problems are shown: the search for the location, the label under its field. */
const FIELDS = { locationId: "location", label: "label" } as const;
type LocationResult = SearchLocationsQuery["searchLocations"][number];

/**
 * Search → choose → optional label → add: the new place joins the switcher straight from the answer and is opened,
 * as the empty home's search does. Closing first hands focus back to "Add a place", which stays above the open place.
 */
export default function AddPlaceOverlay({ close }: OverlayProps) {
  const { t } = useTranslation();
  const labelId = useId();
  const [location, setLocation] = useState<LocationResult | null>(null);
  const [label, setLabel] = useState("");
  const [errors, setErrors] = useState<FieldErrors<"location" | "label">>({});
  const [{ fetching }, addPlace] = useMutation(ADD_PLACE_MUTATION);
  const navigate = useNavigate();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = checkInput(addPlaceInput, { locationId: location?.id ?? null, label: label.trim() || null });
    if (!checked.ok) return setErrors(fieldErrors(checked.issues, t, { fields: FIELDS }));
    setErrors({});
    const result = await addPlace({ locationId: location!.id, label: checked.value.label ?? undefined });
    // A failure is also a toast (the client reports it); the overlay stays open with what was typed.
    if (result.error || !result.data) return setErrors(fieldErrors(apiIssues(result.error), t, { fields: FIELDS }));
    const added = result.data.addPlace;
    showToast({ title: t("addPlace.added", { label: added.label }), variant: "success" });
    close();
    await navigate(placeHref(added.id), { preventScrollReset: true });
  }

  return (
    <form className="flex flex-col gap-4 p-6" onSubmit={submit} noValidate>
      <OverlayHeader name="add-place" title={t("addPlace.title")} close={close} />
      <LocationSearch
        autoFocus
        onSelect={(chosen) => {
          setLocation(chosen);
          setErrors(({ location: _chosen, ...rest }) => rest);
        }}
      />
      {location ? (
        <p className="text-sm" data-testid="chosen-location">
          <span className="font-medium">{location.name}</span> <span className="text-muted">{describeLocation(location)}</span>
        </p>
      ) : null}
      <Field
        id={labelId}
        label={t("addPlace.label")}
        hint={t("addPlace.labelHint")}
        error={errors.label}
        input={{ value: label, maxLength: 60, placeholder: location?.name, onChange: (event) => setLabel(event.target.value) }}
      />
      <FieldError id="add-place-error" message={errors.location} />
      <div className="flex justify-end gap-2">
        <button type="submit" className="button" disabled={fetching}>
          {t("addPlace.submit")}
        </button>
      </div>
    </form>
  );
}
