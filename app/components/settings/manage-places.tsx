import { useId, useRef, useState, type CSSProperties, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useMutation, useQuery } from "urql";
import { ArrowDownIcon, ArrowUpIcon, GripIcon, TrashIcon } from "~/components/icons";
import { Tooltip } from "~/components/ui/tooltip";
import { PLACES_QUERY } from "~/lib/graphql/signed-in-documents";
import {
  REMOVE_PLACE_MUTATION,
  RENAME_PLACE_MUTATION,
  REORDER_PLACES_MUTATION,
  RESTORE_PLACE_MUTATION,
} from "~/lib/graphql/later-documents";
import type { PlaceRowFieldsFragment as PlaceSummary } from "~/lib/graphql/documents.generated";
import { useDragReorder, type DragHandleProps } from "~/lib/drag-reorder";
import { apiIssues, fieldErrors } from "~/lib/forms/field-errors";
import { checkInput } from "~/shared/inputs/issues";
import { renamePlaceInput } from "~/shared/inputs/place";
import { inOrder, moveBy, moveTo } from "~/lib/place-order";
import { focusAfterRemoval } from "~/lib/focus-after-removal";
import { showToast } from "~/lib/toast/toast-store";
import { showUndoToast } from "~/lib/toast/undo-toast";

/**
 * The places in the order the user last asked for. Moves can follow each other faster
 * than the server answers, so each one starts from the previous one's order (not from
 * the list last rendered), and they are sent one after another.
 */
function usePlaceOrder(places: PlaceSummary[]) {
  const { t } = useTranslation();
  const [, reorderPlaces] = useMutation(REORDER_PLACES_MUTATION);
  const [pending, setPending] = useState<string[] | null>(null);
  const latest = useRef<string[] | null>(null);
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const [announcement, setAnnouncement] = useState("");

  function reorder(id: string, next: (order: string[]) => string[]) {
    const order = next(latest.current ?? places.map((place) => place.id));
    latest.current = order;
    setPending(order);
    const sent = queue.current.then(() => reorderPlaces({ ids: order }));
    queue.current = sent;
    void sent.then((result) => {
      // The cache holds the server's order once the last move is answered (or failed).
      if (latest.current === order) {
        latest.current = null;
        setPending(null);
      }
      const label = places.find((place) => place.id === id)?.label;
      if (!result.error && label) setAnnouncement(t("managePlaces.moved", { label, position: order.indexOf(id) + 1 }));
    });
  }

  return {
    shown: inOrder(places, pending),
    announcement,
    moveBy: (id: string, offset: number) => reorder(id, (order) => moveBy(order, id, offset)),
    moveTo: (id: string, to: number) => reorder(id, (order) => moveTo(order, id, to)),
  };
}

function PlaceRow({
  place,
  index,
  count,
  onMove,
  onRemove,
  dragHandle,
  style,
}: {
  place: PlaceSummary;
  index: number;
  count: number;
  onMove: (id: string, offset: number) => void;
  onRemove: (place: PlaceSummary, from: HTMLElement) => void;
  dragHandle: DragHandleProps;
  style: CSSProperties | undefined;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [label, setLabel] = useState(place.label);
  const [error, setError] = useState<string | null>(null);
  const [, renamePlace] = useMutation(RENAME_PLACE_MUTATION);

  async function rename(event?: FormEvent) {
    event?.preventDefault();
    // The API's own check, in the user's language, before anything is sent.
    const checked = checkInput(renamePlaceInput, { label });
    if (!checked.ok) return setError(fieldErrors(checked.issues, t, { fields: ["label"] }).label ?? null);
    const next = checked.value.label;
    setError(null);
    if (next === place.label) return;
    const result = await renamePlace({ id: place.id, label: next });
    if (result.error) return setError(fieldErrors(apiIssues(result.error), t, { fields: ["label"] }).label ?? null);
    showToast({ title: t("managePlaces.renamed", { label: next }), variant: "success" });
  }

  return (
    <li className="flex flex-wrap items-start gap-2 bg-elevated py-3" data-place-id={place.id} data-row-id={place.id} style={style}>
      <Tooltip content={t("managePlaces.drag", { label: place.label })}>
        <button
          type="button"
          className="icon-button cursor-grab touch-none active:cursor-grabbing"
          aria-label={t("managePlaces.drag", { label: place.label })}
          {...dragHandle}
          onKeyDown={(event) => {
            const offset = event.key === "ArrowUp" ? -1 : event.key === "ArrowDown" ? 1 : 0;
            if (!offset) return;
            event.preventDefault();
            onMove(place.id, offset);
          }}
        >
          <GripIcon />
        </button>
      </Tooltip>
      <form className="flex min-w-56 flex-1 flex-col gap-1" onSubmit={rename} noValidate>
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
      <div className="ml-auto flex items-center">
        <Tooltip content={t("managePlaces.moveUp", { label: place.label })}>
          <button
            type="button"
            className="icon-button disabled:opacity-40"
            aria-label={t("managePlaces.moveUp", { label: place.label })}
            disabled={index === 0}
            onClick={() => onMove(place.id, -1)}
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
            onClick={() => onMove(place.id, 1)}
          >
            <ArrowDownIcon />
          </button>
        </Tooltip>
        <Tooltip content={t("managePlaces.remove", { label: place.label })}>
          <button
            type="button"
            className="icon-button"
            aria-label={t("managePlaces.remove", { label: place.label })}
            data-control="remove"
            onClick={(event) => onRemove(place, event.currentTarget)}
          >
            <TrashIcon />
          </button>
        </Tooltip>
      </div>
    </li>
  );
}

/** Rename, reorder (arrow buttons, arrow keys on the handle, or dragging it) and remove places, with undo. */
export function ManagePlaces() {
  const { t } = useTranslation();
  const [places] = useQuery({ query: PLACES_QUERY });
  const order = usePlaceOrder(places.data?.me?.places ?? []);
  const list = order.shown;
  const listRef = useRef<HTMLOListElement>(null);
  const drag = useDragReorder(listRef, order.moveTo);
  const [, removePlace] = useMutation(REMOVE_PLACE_MUTATION);
  const [, restorePlace] = useMutation(RESTORE_PLACE_MUTATION);

  async function remove(place: PlaceSummary, from: HTMLElement) {
    const refocus = focusAfterRemoval(from, { row: "data-place-id", control: "remove", fallbackId: "places-heading" });
    const result = await removePlace({ id: place.id });
    if (result.error) return;
    refocus();
    showUndoToast({
      title: t("managePlaces.removed", { label: place.label }),
      undoLabel: t("managePlaces.undo"),
      // The same place, back in its position with its rules and briefing slots.
      restore: () => restorePlace({ id: place.id }),
      restoredTitle: t("managePlaces.restored", { label: place.label }),
    });
  }

  if (list.length === 0) return <p className="text-muted">{t("managePlaces.empty")}</p>;
  return (
    <>
      <ol ref={listRef} className="flex flex-col divide-y divide-default" data-testid="manage-places">
        {list.map((place, index) => (
          <PlaceRow
            key={place.id}
            place={place}
            index={index}
            count={list.length}
            onMove={order.moveBy}
            onRemove={remove}
            dragHandle={drag.handleProps(place.id)}
            style={drag.rowStyle(place.id)}
          />
        ))}
      </ol>
      <p className="sr-only" role="status" aria-live="polite">
        {order.announcement}
      </p>
    </>
  );
}
