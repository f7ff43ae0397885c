/** The ids in `order` with `id` moved to position `to` (clamped to the list). */
export function moveTo(order: readonly string[], id: string, to: number): string[] {
  const from = order.indexOf(id);
  if (from < 0) return [...order];
  const next = order.filter((other) => other !== id);
  next.splice(Math.max(0, Math.min(to, next.length)), 0, id);
  return next;
}

/** The ids in `order` with `id` moved by `offset` places (clamped to the list). */
export function moveBy(order: readonly string[], id: string, offset: number): string[] {
  return moveTo(order, id, order.indexOf(id) + offset);
}

/**
 * `items` in the order the user asked for while the server has not confirmed it yet:
 * ids no longer in `items` are dropped, and items the order does not know (added
 * meanwhile) keep their place at the end.
 */
export function inOrder<T extends { id: string }>(items: readonly T[], order: readonly string[] | null): T[] {
  if (!order) return [...items];
  const byId = new Map(items.map((item) => [item.id, item]));
  const ordered = order.flatMap((id) => byId.get(id) ?? []);
  const known = new Set(order);
  return [...ordered, ...items.filter((item) => !known.has(item.id))];
}
