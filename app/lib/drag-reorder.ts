import { useRef, useState, type CSSProperties, type PointerEvent, type RefObject } from "react";

/** Where a row sits on screen when a drag starts. */
export type RowBox = { id: string; top: number; height: number };

const middle = (row: RowBox) => row.top + row.height / 2;

/** The index a row dragged `dy` pixels would drop at: past every other row whose middle it passed. */
export function dropIndex(rows: readonly RowBox[], id: string, dy: number): number {
  const dragged = rows.find((row) => row.id === id);
  if (!dragged) return -1;
  const draggedMiddle = middle(dragged) + dy;
  return rows.filter((row) => row.id !== id && middle(row) < draggedMiddle).length;
}

/** How far another row slides to make room while `id` is dragged to index `to`. */
export function rowShift(rows: readonly RowBox[], id: string, to: number, other: string): number {
  const from = rows.findIndex((row) => row.id === id);
  const index = rows.findIndex((row) => row.id === other);
  if (from < 0 || index < 0 || other === id) return 0;
  const room = rows[from]!.height;
  if (from < to && index > from && index <= to) return -room;
  if (to < from && index >= to && index < from) return room;
  return 0;
}

type Drag = { id: string; pointerId: number; startY: number; dy: number; rows: RowBox[] };

/** What a row's drag handle listens to. */
export type DragHandleProps = {
  onPointerDown(event: PointerEvent<HTMLElement>): void;
  onPointerMove(event: PointerEvent<HTMLElement>): void;
  onPointerUp(event: PointerEvent<HTMLElement>): void;
  onPointerCancel(): void;
};

/**
 * Pointer dragging for a list whose rows carry `data-row-id`: the grabbed row follows
 * the pointer, the others slide aside, and `onDrop(id, index)` runs on release.
 */
export function useDragReorder(list: RefObject<HTMLElement | null>, onDrop: (id: string, to: number) => void) {
  const [drag, setDrag] = useState<Drag | null>(null);
  const current = useRef<Drag | null>(null);
  const update = (next: Drag | null) => {
    current.current = next;
    setDrag(next);
  };

  function handleProps(id: string): DragHandleProps {
    return {
      onPointerDown(event: PointerEvent<HTMLElement>) {
        if (event.button !== 0 || !list.current) return;
        const rows = [...list.current.querySelectorAll<HTMLElement>("[data-row-id]")].map((row) => {
          const box = row.getBoundingClientRect();
          return { id: row.dataset.rowId!, top: box.top, height: box.height };
        });
        event.currentTarget.setPointerCapture(event.pointerId);
        update({ id, pointerId: event.pointerId, startY: event.clientY, dy: 0, rows });
      },
      onPointerMove(event: PointerEvent<HTMLElement>) {
        const active = current.current;
        if (active?.pointerId === event.pointerId) update({ ...active, dy: event.clientY - active.startY });
      },
      onPointerUp(event: PointerEvent<HTMLElement>) {
        const active = current.current;
        if (active?.pointerId !== event.pointerId) return;
        update(null);
        const from = active.rows.findIndex((row) => row.id === active.id);
        const to = dropIndex(active.rows, active.id, active.dy);
        if (to !== from) onDrop(active.id, to);
      },
      onPointerCancel: () => update(null),
    };
  }

  function rowStyle(id: string): CSSProperties | undefined {
    if (!drag) return undefined;
    if (id === drag.id) return { transform: `translateY(${drag.dy}px)`, position: "relative", zIndex: 1 };
    const shift = rowShift(drag.rows, drag.id, dropIndex(drag.rows, drag.id, drag.dy), id);
    return { transform: `translateY(${shift}px)`, transition: "transform 150ms ease" };
  }

  return { draggingId: drag?.id ?? null, handleProps, rowStyle };
}
