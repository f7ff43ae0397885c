/**
 * Keeping a keyboard user's place when the control they used goes away with its item
 * (a deleted message, a removed place) or by itself (a message's "Mark as read"). Without
 * this, focus falls back to the top of the page.
 *
 * Rows carry an id attribute (`data-message-id`, …) and their controls a `data-control`
 * name; targets are looked up when focus moves, because React (or a tooltip turning into
 * its Radix version) may have replaced the nodes meanwhile.
 */
type Rows = { row: string; control: string; fallbackId: string };

const controlIn = (row: string, id: string, control: string) =>
  document.querySelector<HTMLElement>(`[${row}="${CSS.escape(id)}"] [data-control="${CSS.escape(control)}"]`);

function rowIdsAround(item: Element | null, row: string): string[] {
  const ids: string[] = [];
  for (const step of ["nextElementSibling", "previousElementSibling"] as const) {
    let sibling = item?.[step] ?? null;
    while (sibling && !sibling.hasAttribute(row)) sibling = sibling[step];
    const id = sibling?.getAttribute(row);
    if (id) ids.push(id);
  }
  return ids;
}

function focusFirst(from: Element | null, item: Element | null, targets: Array<() => HTMLElement | null>) {
  const active = document.activeElement;
  // Focus somewhere else on the page by now: the user moved on, leave it there.
  if (active && active !== document.body && active !== from && !item?.contains(active)) return;
  for (const target of targets) {
    const element = target();
    if (element) return element.focus();
  }
}

function heading(id: string): HTMLElement | null {
  const element = document.getElementById(id);
  if (element && !element.hasAttribute("tabindex")) element.tabIndex = -1;
  return element;
}

/**
 * Call before removing the item `from` belongs to; call the result once it is gone: focus
 * moves to the same control of the next item, else of the previous one, else to the heading.
 */
export function focusAfterRemoval(from: HTMLElement, { row, control, fallbackId }: Rows): () => void {
  const item = from.closest(`[${row}]`);
  const ids = rowIdsAround(item, row);
  return () => focusFirst(from, item, [...ids.map((id) => () => controlIn(row, id, control)), () => heading(fallbackId)]);
}

/** Call before `from` goes away from its item; call the result after: focus moves to the item's `control`. */
export function focusWithinItem(from: HTMLElement, { row, control, fallbackId }: Rows): () => void {
  const item = from.closest(`[${row}]`);
  const id = item?.getAttribute(row);
  return () => focusFirst(from, item, [() => (id ? controlIn(row, id, control) : null), () => heading(fallbackId)]);
}
