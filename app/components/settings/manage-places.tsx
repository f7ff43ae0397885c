import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useMutation, useQuery } from "urql";
import { ArrowDownIcon, ArrowUpIcon, TrashIcon } from "~/components/icons";
import { Tooltip } from "~/components/ui/tooltip";
import {
  PLACES_QUERY,
  REMOVE_PLACE_MUTATION,
  RENAME_PLACE_MUTATION,
  REORDER_PLACES_MUTATION,
  RESTORE_PLACE_MUTATION,
  type PlaceSummary,
} from "~/lib/graphql/documents";
import { showToast } from "~/lib/toast/toast-store";

function moved<T>(items: T[], from: number, to: number): T[] {
  const next = [...items];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

function PlaceRow({
  place,
  index,
  count,
  onMove,
  onRemove,
}: {
  place: PlaceSummary;
  index: number;
  count: number;
  onMove: (from: number, to: number) => void;
  onRemove: (place: PlaceSummary, index: number) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [label, setLabel] = useState(place.label);
  const [error, setError] = useState<string | null>(null);
  const [, renamePlace] = useMutation(RENAME_PLACE_MUTATION);

  async function rename(event?: FormEvent) {
    event?.preventDefault();
    const next = label.trim();
    if (!next) return setError(t("managePlaces.labelRequired"));
    setError(null);
    if (next === place.label) return;
    const result = await renamePlace({ id: place.id, label: next });
    if (!result.error) showToast({ title: t("managePlaces.renamed", { label: next }), variant: "success" });
  }

  return (
    <li className="flex flex-wrap items-start gap-2 py-3" data-place-id={place.id}>
      <form className="flex min-w-0 flex-1 flex-col gap-1" onSubmit={rename} noValidate>
        <label htmlFor={id} className="sr-only">
          {t("managePlaces.label", { name: place.name })}
        </label>
        <div className="flex gap-2">
          <input
            id={id}
            className="input min-w-0 flex-1"
            value={label}
            maxLength={60}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(event) => setLabel(event.target.value)}
            onBlur={() => void rename()}
          />
          <button type="submit" className="button-secondary">
            {t("managePlaces.rename")}
          </button>
        </div>
        {error ? (
          <p id={`${id}-error`} role="alert" className="text-sm text-red-700 dark:text-red-300">
            {error}
          </p>
        ) : null}
      </form>
      <div className="flex items-center">
        <Tooltip content={t("managePlaces.moveUp", { label: place.label })}>
          <button
            type="button"
            className="icon-button disabled:opacity-40"
            aria-label={t("managePlaces.moveUp", { label: place.label })}
            disabled={index === 0}
            onClick={() => onMove(index, index - 1)}
          >
            <ArrowUpIcon />
          </button>
        </Tooltip>
        <Tooltip content={t("managePlaces.moveDown", { label: place.label })}>
          <button
            type="button"
            className="icon-button disabled:opacity-40"
            aria-label={t("managePlaces.moveDown", { label: place.label })}
            disabled={index === count - 1}
            onClick={() => onMove(index, index + 1)}
          >
            <ArrowDownIcon />
          </button>
        </Tooltip>
        <Tooltip content={t("managePlaces.remove", { label: place.label })}>
          <button
            type="button"
            className="icon-button"
            aria-label={t("managePlaces.remove", { label: place.label })}
            onClick={() => onRemove(place, index)}
          >
            <TrashIcon />
          </button>
        </Tooltip>
      </div>
    </li>
  );
}

/** Rename, reorder (buttons: keyboard and pointer alike) and remove places, with undo. */
export function ManagePlaces() {
  const { t } = useTranslation();
  const [places] = useQuery({ query: PLACES_QUERY });
  const list = places.data?.me?.places ?? [];
  const [announcement, setAnnouncement] = useState("");
  const [, reorderPlaces] = useMutation(REORDER_PLACES_MUTATION);
  const [, removePlace] = useMutation(REMOVE_PLACE_MUTATION);
  const [, restorePlace] = useMutation(RESTORE_PLACE_MUTATION);

  async function move(from: number, to: number) {
    const order = moved(list, from, to);
    const result = await reorderPlaces({ ids: order.map((place) => place.id) });
    if (!result.error) setAnnouncement(t("managePlaces.moved", { label: list[from]!.label, position: to + 1 }));
  }

  async function remove(place: PlaceSummary, index: number) {
    const result = await removePlace({ id: place.id });
    if (result.error) return;
    showToast({
      title: t("managePlaces.removed", { label: place.label }),
      variant: "success",
      action: {
        label: t("managePlaces.undo"),
        onAction: async () => {
          // Back under its label, in its old position.
          const restored = await restorePlace({ latitude: place.latitude, longitude: place.longitude, label: place.label });
          const back = restored.data?.addPlace;
          if (!back) return;
          const current = list.filter((other) => other.id !== place.id).map((other) => other.id);
          current.splice(index, 0, back.id);
          await reorderPlaces({ ids: current });
          showToast({ title: t("managePlaces.restored", { label: place.label }), variant: "success" });
        },
      },
    });
  }

  if (list.length === 0) return <p className="text-muted">{t("managePlaces.empty")}</p>;
  return (
    <>
      <ol className="flex flex-col divide-y divide-default" data-testid="manage-places">
        {list.map((place, index) => (
          <PlaceRow key={place.id} place={place} index={index} count={list.length} onMove={move} onRemove={remove} />
        ))}
      </ol>
      <p className="sr-only" role="status" aria-live="polite">
        {announcement}
      </p>
    </>
  );
}
