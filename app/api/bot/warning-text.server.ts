import {
  MAX_WARNING_TEXTS,
  pickWarningText,
  WARNING_CONTENT_VERSION,
  type ContentPlace,
  type MessageContent,
  type WarningContent,
  type WarningContentText,
} from "../../shared/message-content";
import type { WarningChange, WarningSeverity, WarningUrgency } from "../../shared/schema-enums.generated";
import { WARNING_DESCRIPTION_CHARS, WARNING_INSTRUCTION_CHARS } from "../../shared/message-format";
import type { PlaceTable } from "../db/tables";
import type { OfficialWarning } from "../warnings/official-warnings.server";
import type { NewMessage } from "./inbox.server";
import { LOCALE_OF } from "./texts.server";
import { formatContent, type ReaderSettings } from "./message-text.server";

/** The longest event name, credit and area kept (a feed's text is the feed's: it is bounded here). */
const SHORT_TEXT_CHARS = 200;

/**
 * Whether a character is one no message shows: control characters but line breaks and tabs
 * (PostgreSQL refuses NUL in text), bidirectional overrides and isolates (they turn the text
 * around them), lone surrogates.
 */
function unshown(char: string): boolean {
  const code = char.codePointAt(0)!;
  if (char === "\n" || char === "\t") return false;
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069) ||
    (code >= 0xd800 && code <= 0xdfff)
  );
}

/** At most `most` characters of a feed's text (null for none), without what no message shows: what content keeps of it. */
function bounded(text: string | null | undefined, most: number): string | null {
  if (!text) return null;
  // A megabyte of headline is read no further than the message could show of it.
  const trimmed = [...text.slice(0, most * 4)]
    .filter((char) => !unshown(char))
    .join("")
    .trim();
  if (trimmed === "") return null;
  if (trimmed.length <= most) return trimmed;
  // Not between the halves of a character outside the BMP.
  return `${trimmed
    .slice(0, most - 1)
    .replace(/[\ud800-\udbff]$/, "")
    .trimEnd()}…`;
}

const SEVERITIES: Record<OfficialWarning["severity"], WarningSeverity> = {
  Extreme: "EXTREME",
  Severe: "SEVERE",
  Moderate: "MODERATE",
  Minor: "MINOR",
  Unknown: "UNKNOWN",
};
const URGENCIES: Record<OfficialWarning["urgency"], WarningUrgency> = {
  Immediate: "IMMEDIATE",
  Expected: "EXPECTED",
  Future: "FUTURE",
  Past: "PAST",
  Unknown: "UNKNOWN",
};

/**
 * The texts a warning's content keeps: the block each language of the app reads (as the layer
 * and the browser choose, pickWarningText), in the service's order, each bounded.
 */
export function warningTexts(texts: OfficialWarning["texts"]): WarningContentText[] {
  const chosen = new Set(Object.values(LOCALE_OF).map((locale) => pickWarningText(texts, locale)));
  return texts
    .filter((text) => chosen.has(text))
    .slice(0, MAX_WARNING_TEXTS)
    .map((text) => ({
      language: bounded(text.language, 35) ?? "en-US",
      event: bounded(text.event, SHORT_TEXT_CHARS) ?? "",
      headline: bounded(text.headline, WARNING_INSTRUCTION_CHARS),
      description: bounded(text.description, WARNING_DESCRIPTION_CHARS),
      instruction: bounded(text.instruction, WARNING_INSTRUCTION_CHARS),
    }));
}

export const contentPlace = (place: Pick<PlaceTable, "id" | "label" | "time_zone">): ContentPlace => ({
  id: place.id,
  label: place.label,
  timeZone: place.time_zone,
});

/** A warning as a message tells it, at the places of the user it concerns. */
export function warningContent(warning: OfficialWarning, places: readonly PlaceTable[], change: WarningChange): WarningContent {
  return {
    warningId: warning.id,
    change,
    service: bounded(warning.service, SHORT_TEXT_CHARS) ?? "",
    severity: SEVERITIES[warning.severity] ?? "UNKNOWN",
    urgency: URGENCIES[warning.urgency] ?? "UNKNOWN",
    area: bounded(warning.area, WARNING_INSTRUCTION_CHARS) ?? "",
    sent: warning.sent,
    onset: warning.onset,
    expires: warning.expires,
    texts: warningTexts(
      warning.texts.length > 0
        ? warning.texts
        : [
            {
              language: warning.language,
              event: warning.event,
              headline: warning.headline,
              description: warning.description,
              instruction: warning.instruction,
            },
          ],
    ),
    places: places.map(contentPlace),
    web: bounded(warning.web, 500),
  };
}

/** Extreme and severe warnings reach the user in quiet hours too; their end, and lesser ones, wait. */
export const isUrgentWarning = (warning: Pick<WarningContent, "severity" | "change">) =>
  warning.change !== "CLEARED" && (warning.severity === "EXTREME" || warning.severity === "SEVERE");

/**
 * The WARNING message telling `warning` to its user: its content, and its text for them now (stored
 * beside it: what readers that cannot format the content see); urgent as isUrgentWarning says.
 */
export function warningMessage(userId: string, warning: WarningContent, settings: ReaderSettings, dedupeKey: string): NewMessage {
  const content: MessageContent = {
    version: WARNING_CONTENT_VERSION,
    kind: "WARNING",
    place: warning.places[0] ?? null,
    warning,
  };
  const { title, body } = formatContent(content, settings);
  return {
    userId,
    kind: "WARNING",
    title,
    body,
    content,
    urgent: isUrgentWarning(warning),
    placeId: warning.places[0]?.id ?? null,
    dedupeKey,
  };
}
