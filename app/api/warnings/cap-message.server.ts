import type { WarningCertainty, WarningMessageType, WarningSeverity, WarningUrgency } from "./official-warning.server";

/**
 * A CAP 1.2 message as this layer keeps it between reading a feed and answering for a place:
 * what NWS's GeoJSON properties and MeteoAlarm's CAP XML (or, failing that, its Atom entry) say,
 * in one shape. Values are checked and normalised here; nothing downstream sees raw feed data.
 */

export type CapReference = { sender: string; identifier: string; sent: string | null };

/** A CAP area; polygon points are [latitude, longitude], as CAP writes them. */
export type CapArea = {
  areaDesc: string;
  polygons: Array<Array<[number, number]>>;
  geocodes: Array<{ valueName: string; value: string }>;
};

export type CapInfo = {
  language: string;
  event: string;
  urgency: WarningUrgency;
  severity: WarningSeverity;
  certainty: WarningCertainty;
  onset: string | null;
  /** When the hazard ends (NWS `ends` when given, else `expires`). */
  expires: string | null;
  senderName: string | null;
  headline: string | null;
  description: string | null;
  instruction: string | null;
  web: string | null;
  areas: CapArea[];
};

export type CapMessage = {
  identifier: string;
  sender: string;
  sent: string | null;
  /** CAP `status`: only "Actual" messages reach a reader. */
  status: string;
  /** null for Ack and Error messages (and anything else), which are not warnings. */
  msgType: WarningMessageType | null;
  references: CapReference[];
  infos: CapInfo[];
};

const SEVERITIES = new Set<WarningSeverity>(["Extreme", "Severe", "Moderate", "Minor", "Unknown"]);
const URGENCIES = new Set<WarningUrgency>(["Immediate", "Expected", "Future", "Past", "Unknown"]);
const CERTAINTIES = new Set<WarningCertainty>(["Observed", "Likely", "Possible", "Unlikely", "Unknown"]);
const MESSAGE_TYPES = new Set<WarningMessageType>(["Alert", "Update", "Cancel"]);

/** One of CAP's values, matched without regard to case ("moderate" is "Moderate"); "Unknown" otherwise. */
function oneOf<T extends string>(values: Set<T>, fallback: T) {
  return (value: unknown): T => {
    if (typeof value !== "string") return fallback;
    const wanted = value.trim().toLowerCase();
    for (const known of values) if (known.toLowerCase() === wanted) return known;
    return fallback;
  };
}

export const severityOf = oneOf(SEVERITIES, "Unknown");
export const urgencyOf = oneOf(URGENCIES, "Unknown");
/** CAP 1.0's "Very Likely" is CAP 1.2's "Likely". */
export const certaintyOf = (value: unknown) => oneOf(CERTAINTIES, "Unknown")(value === "Very Likely" ? "Likely" : value);

export function messageTypeOf(value: unknown): WarningMessageType | null {
  if (typeof value !== "string") return null;
  const wanted = value.trim().toLowerCase();
  for (const known of MESSAGE_TYPES) if (known.toLowerCase() === wanted) return known;
  return null;
}

/** An ISO instant in UTC from a CAP date-time; null when missing or not a date. */
export function instantOf(value: unknown): string | null {
  if (typeof value !== "string" || !value.trim()) return null;
  const time = Date.parse(value.trim());
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/** A text value kept short enough for a message (a feed can send anything); null when empty. */
export function textValue(value: unknown, maxLength = 10_000): string | null {
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  if (!trimmed) return null;
  return trimmed.length > maxLength ? `${trimmed.slice(0, maxLength - 1)}…` : trimmed;
}

/** CAP `references`: space-separated "sender,identifier,sent" triples (CAP 1.2, section 3.2.1). */
export function parseReferences(value: string | null): CapReference[] {
  if (!value) return [];
  return value
    .split(/\s+/)
    .map((triple) => triple.split(","))
    .filter((parts) => parts.length >= 2 && parts[1])
    .map(([sender, identifier, sent]) => ({ sender: sender ?? "", identifier: identifier!, sent: instantOf(sent) }));
}

/** A CAP polygon ("lat,lon lat,lon …", closed); null when it has fewer than 4 valid points. */
export function parsePolygon(value: string | null): Array<[number, number]> | null {
  if (!value) return null;
  const points: Array<[number, number]> = [];
  for (const pair of value.trim().split(/\s+/)) {
    const [lat, lon] = pair.split(",").map(Number);
    if (lat === undefined || lon === undefined || !Number.isFinite(lat) || !Number.isFinite(lon)) return null;
    if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
    points.push([lat, lon]);
  }
  return points.length >= 4 ? points : null;
}
