import { createHash } from "node:crypto";
import type { WarningContent } from "../../shared/message-content";
import type { WarningChange } from "../../shared/schema-enums.generated";
import type { PlaceTable, SettingsTable, WarningStateTable } from "../db/tables";
import type { OfficialWarning, WarningsOutcome } from "../warnings/official-warnings.server";
import type { NewMessage } from "./inbox.server";
import { contentPlace, warningContent, warningMessage } from "./warning-text.server";

/** One user's places with what the warnings layer answered for each (none: no service covers it), and what they were told. */
export type UserWarnings = {
  userId: string;
  settings: SettingsTable;
  /** Every place of the user, in their order. */
  places: PlaceTable[];
  answers: ReadonlyMap<string, WarningsOutcome>;
  states: WarningStateTable[];
};

/** What a pass calls for at one user: messages, and the states to write with them (or forget). */
export type WarningDecision = {
  userId: string;
  messages: NewMessage[];
  saved: WarningStateTable[];
  /** Warning ids whose state goes: none of the places it was told for is left. */
  forgotten: string[];
};

/**
 * An id from a feed as a part of a key: as it is when it is short printable ASCII (every real
 * NWS and MeteoAlarm identifier), else its hash, so that a hostile feed's megabyte identifier
 * cannot make a row too big for an index (and the transaction fail for every user in it).
 */
export function warningKeyPart(id: string): string {
  return id.length <= 160 && /^[\x21-\x7e]+$/.test(id) ? id : `sha256-${createHash("sha256").update(id).digest("hex").slice(0, 40)}`;
}

/** The dedupe key of the message telling a warning's CAP message (issued or updated). */
export const warningMessageKey = (userId: string, warningId: string, messageId: string) => `warning:${userId}:${warningId}:${messageId}`;

/** The dedupe key of the message telling that a warning is over: one per telling (from its ISSUED message on). */
export const warningClearedKey = (userId: string, warningId: string, issuedId: string) =>
  `warning:${userId}:${warningId}:cleared:${issuedId}`;

/**
 * Whether an answer for a place says all that is in force there: a warning missing from it is
 * over (or no longer concerns the place). A service down (the layer's last answer, stale, or
 * none) or an answer with documents it could not read says nothing of what is missing.
 */
function tellsAll(outcome: WarningsOutcome | undefined): boolean {
  if (!outcome || outcome.status === "not-covered") return true;
  return outcome.status === "ok" && !outcome.stale && outcome.incomplete.length === 0;
}

const sentAt = (sent: string | null | undefined) => (sent ? Date.parse(sent) : Number.NaN);
const CANCEL_RANK = { Alert: 0, Update: 1, Cancel: 2 } as const;

/** The later of two messages of one warning (a Cancel outranks what it cancels when both carry the same time). */
function later(a: OfficialWarning, b: OfficialWarning): OfficialWarning {
  const [at, bt] = [sentAt(a.sent), sentAt(b.sent)];
  if (at !== bt && !Number.isNaN(at) && !Number.isNaN(bt)) return at > bt ? a : b;
  return CANCEL_RANK[b.messageType] > CANCEL_RANK[a.messageType] ? b : a;
}

/**
 * The warnings in force at the user's places, each once with every place it concerns (in the
 * user's order). Warnings matched only by their country (MeteoAlarm documents that name their
 * areas by codes: "somewhere in France") are the card's, not announced (decision 023).
 */
function currentWarnings({ places, answers }: UserWarnings) {
  const current = new Map<string, { warning: OfficialWarning; places: PlaceTable[] }>();
  for (const place of places) {
    const outcome = answers.get(place.id);
    if (outcome?.status !== "ok") continue;
    for (const warning of outcome.warnings) {
      if (warning.match === "country") continue;
      const id = warningKeyPart(warning.id);
      const known = current.get(id);
      if (!known) current.set(id, { warning, places: [place] });
      else {
        // Two areas' answers (fetched at other times) may hold other messages of one warning: the latest counts.
        known.warning = later(known.warning, warning);
        if (!known.places.includes(place)) known.places.push(place);
      }
    }
  }
  return current;
}

/**
 * What one user is told of official warnings in a pass (pure: the pass reads and writes):
 * a warning is announced once when first seen (ISSUED), again for each later CAP message the
 * service sends (UPDATED), and once when it is cancelled, expires or leaves the user's places
 * (CLEARED). A warning missing from an answer is over only when every place it was told for
 * had an answer that tells all (tellsAll): an unavailable service, a stale answer or an
 * incomplete one clears nothing. An older message than the one told (another instance's older
 * answer) is never told after it. A stored state is found by the warning's id or, after a
 * restart lost the layer's memory of a MeteoAlarm chain, by a message the new one references.
 */
export function decideWarnings(user: UserWarnings, now: Date): WarningDecision | null {
  const decision: WarningDecision = { userId: user.userId, messages: [], saved: [], forgotten: [] };
  const byId = new Map(user.states.map((state) => [state.warning_id, state]));
  const byMessage = new Map(user.states.map((state) => [state.message_id, state]));
  const seen = new Set<WarningStateTable>();
  const placesById = new Map(user.places.map((place) => [place.id, place]));
  const told = (state: WarningStateTable) => state.place_ids.split(",").flatMap((id) => placesById.get(id) ?? []);

  for (const [id, { warning, places }] of currentWarnings(user)) {
    const state =
      byId.get(id) ??
      warning.references
        .map((reference) => byMessage.get(warningKeyPart(reference)) ?? byId.get(warningKeyPart(`${warning.serviceId}:${reference}`)))
        .find((found) => found !== undefined);
    // A state answers for one warning (two messages may point at one after a restart: the first is told).
    if (state && seen.has(state)) continue;
    if (state) seen.add(state);
    const messageId = warningKeyPart(warning.messageId);
    if (warning.messageType === "Cancel") {
      // A cancellation of a warning never told says nothing to this user.
      if (state && state.cleared_at === null) clear(decision, user, state, warningContent(warning, places, "CLEARED"), told(state), now);
      continue;
    }
    if (state?.message_id === messageId) {
      if (state.cleared_at === null) keepPlaces(decision, user, state, places);
      continue;
    }
    if (state && sentAt(warning.sent) < sentAt(state.sent)) continue;
    const change: WarningChange = state && state.cleared_at === null ? "UPDATED" : "ISSUED";
    tell(decision, user, state, warning, places, change, now);
  }

  for (const state of user.states) {
    if (seen.has(state) || state.cleared_at !== null) continue;
    const ids = state.place_ids.split(",").filter(Boolean);
    const left = ids.filter((placeId) => placesById.has(placeId));
    if (left.length === 0) {
      // Its places were removed: nobody here is waiting to hear it is over.
      decision.forgotten.push(state.warning_id);
      continue;
    }
    if (!left.every((placeId) => tellsAll(user.answers.get(placeId)))) continue;
    const content = JSON.parse(state.content) as WarningContent;
    clear(decision, user, state, { ...content, change: "CLEARED" }, told(state), now);
  }
  const acts = decision.messages.length + decision.saved.length + decision.forgotten.length;
  return acts > 0 ? decision : null;
}

/**
 * A told warning that now also concerns other places of the user (one added since) keeps them
 * with its own, without a message: it is over only when it has left all of them.
 */
function keepPlaces(decision: WarningDecision, user: UserWarnings, state: WarningStateTable, places: PlaceTable[]): void {
  const ids = new Set([...state.place_ids.split(","), ...places.map((place) => place.id)]);
  const kept = user.places
    .filter((place) => ids.has(place.id))
    .map((place) => place.id)
    .join(",");
  if (kept !== state.place_ids) decision.saved.push({ ...state, place_ids: kept });
}

/** An ISSUED or UPDATED message for the warning's message, and the state that remembers it. */
function tell(
  decision: WarningDecision,
  user: UserWarnings,
  state: WarningStateTable | undefined,
  warning: OfficialWarning,
  places: PlaceTable[],
  change: WarningChange,
  now: Date,
): void {
  // Matched by reference after a restart, the warning keeps the id it was told under.
  const warningId = state?.warning_id ?? warningKeyPart(warning.id);
  const messageId = warningKeyPart(warning.messageId);
  const content = warningContent(warning, places, change);
  decision.messages.push(warningMessage(user.userId, content, user.settings, warningMessageKey(user.userId, warningId, messageId)));
  decision.saved.push({
    user_id: user.userId,
    warning_id: warningId,
    message_id: messageId,
    issued_id: change === "ISSUED" || !state ? messageId : state.issued_id,
    sent: warning.sent,
    place_ids: places.map((place) => place.id).join(","),
    content: JSON.stringify(content),
    told_at: now.toISOString(),
    cleared_at: null,
  });
}

/** The CLEARED message of a told warning, at the places it was told for that are left, and its state closed. */
function clear(
  decision: WarningDecision,
  user: UserWarnings,
  state: WarningStateTable,
  content: WarningContent,
  places: PlaceTable[],
  now: Date,
): void {
  const cleared: WarningContent = {
    ...content,
    // The id it was told under (after a restart, a MeteoAlarm cancellation may come with another).
    warningId: (JSON.parse(state.content) as WarningContent).warningId,
    change: "CLEARED",
    places: places.length > 0 ? places.map(contentPlace) : content.places,
  };
  decision.messages.push(
    warningMessage(user.userId, cleared, user.settings, warningClearedKey(user.userId, state.warning_id, state.issued_id)),
  );
  decision.saved.push({ ...state, content: JSON.stringify(cleared), cleared_at: now.toISOString() });
}
