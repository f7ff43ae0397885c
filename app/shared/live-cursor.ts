/**
 * The smallest UUIDv7 of a millisecond: every message id made at or after `epochMs` sorts
 * after it, so it can stand for "the messages written since then" in `messageReceived(after:)`.
 */
export function timeOrderedLowerBound(epochMs: number): string {
  const hex = Math.max(0, Math.floor(epochMs)).toString(16).padStart(12, "0").slice(-12);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-000000000000`;
}

type Payload = { variables?: Record<string, unknown> | null; data?: unknown };

/**
 * Keeps a resumable subscription's `after` variable on the newest item it delivered.
 * graphql-ws sends the same payload object again when it reconnects, so the server
 * replays exactly what this client missed.
 */
export function advanceResumeCursor(request: Payload, result: Payload): void {
  const variables = request.variables;
  if (!variables || !("after" in variables)) return;
  const data = result.data as Record<string, { id?: unknown } | null> | null | undefined;
  const item = data ? Object.values(data)[0] : null;
  if (item && typeof item.id === "string" && (typeof variables.after !== "string" || item.id > variables.after)) {
    variables.after = item.id;
  }
}
