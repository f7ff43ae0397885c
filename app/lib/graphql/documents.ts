/*
 * The operations the screens read, written in documents.graphql and typed by `npm run codegen`
 * (documents.generated.ts: each document carries its result and variable types). Each is shared by the
 * route's server loader (which runs it for the page's first render and serialises the result) and the
 * component that reads it cache-first, so the two hit the same cache entry.
 */
import type { AlertRuleFieldsFragment, AlertRuleInput } from "./documents.generated";

export {
  AlertRulesDocument as ALERT_RULES_QUERY,
  DeleteMessageDocument as DELETE_MESSAGE_MUTATION,
  InboxDocument as INBOX_QUERY,
  MarkAllReadDocument as MARK_ALL_READ_MUTATION,
  MarkReadDocument as MARK_READ_MUTATION,
  MessageReceivedDocument as MESSAGE_RECEIVED_SUBSCRIPTION,
  OpenPlaceDocument as OPEN_PLACE_QUERY,
  PlacesDocument as PLACES_QUERY,
  RestoreMessageDocument as RESTORE_MESSAGE_MUTATION,
  SearchLocationsDocument as SEARCH_LOCATIONS_QUERY,
  ViewerDocument as VIEWER_QUERY,
} from "./documents.generated";

/** The inbox's page size (written in the Inbox document); later pages pass the previous page's `endCursor` as `after`. */
export const INBOX_PAGE_SIZE = 30;
/** The Inbox document's variables for the first page (`after` unset) or a later one. */
export const inboxVariables = (after?: string) => (after ? { after } : {});

/** Everything a saved rule's input holds, so a quick change (on/off) keeps the rest as it is. */
export function alertRuleInput(rule: AlertRuleFieldsFragment) {
  const { id: _id, place, state: _state, snoozedUntil: _snoozedUntil, ...fields } = rule;
  return { ...fields, placeId: place?.id ?? null } satisfies AlertRuleInput;
}

/** A rule's whole input, every field given (the rule editor's draft, the starter rules). */
export type CompleteAlertRuleInput = ReturnType<typeof alertRuleInput>;
