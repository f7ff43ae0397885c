/**
 * The new rules' summary ("Your new rules: 3 things ahead", app/api/bot/alert-decision.server.ts) is stored as words,
 * not content: its body is each new rule's alert, one a line. The inbox splits it back into those lines to show them
 * as a list; at a phone's width, long lines that wrap ran together as one text (issue 32).
 */
const LINE_SEPARATOR = "\n";

/** The summary's body: one line per alert. */
export function rulesSummaryBody(lines: readonly string[]): string {
  return lines.join(LINE_SEPARATOR);
}

/**
 * A message's body as the summary's lines, or null for a message told as one text. Only the summary is an alert of
 * several lines (any other alert's body is one line), so the kind and the line count are enough to know it.
 */
export function rulesSummaryLines(kind: string, body: string): string[] | null {
  if (kind !== "ALERT") return null;
  const lines = body
    .split(LINE_SEPARATOR)
    .map((line) => line.trim())
    .filter((line) => line !== "");
  return lines.length > 1 ? lines : null;
}
