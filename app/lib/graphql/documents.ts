/*
 * The operations every page's first paint may send, written in documents.graphql and typed by `npm run codegen`
 * (documents.generated.ts: each document carries its result and variable types). Each is shared by the
 * route's server loader (which runs it for the page's first render and serialises the result) and the
 * component that reads it cache-first, so the two hit the same cache entry. A signed-in page's own are in
 * signed-in-documents.ts, the rest in later-documents.ts.
 */
import type { AlertRuleFieldsFragment, AlertRuleInput } from "./documents.generated";

export {
  MessageReceivedDocument as MESSAGE_RECEIVED_SUBSCRIPTION,
  SearchLocationsDocument as SEARCH_LOCATIONS_QUERY,
  ViewerDocument as VIEWER_QUERY,
} from "./documents.generated";

/** Everything a saved rule's input holds, so a quick change (on/off) keeps the rest as it is. */
export function alertRuleInput(rule: AlertRuleFieldsFragment) {
  const { id: _id, place, state: _state, snoozedUntil: _snoozedUntil, ...fields } = rule;
  return { ...fields, placeId: place?.id ?? null } satisfies AlertRuleInput;
}

/** A rule's whole input, every field given (the rule editor's draft, the starter rules). */
export type CompleteAlertRuleInput = ReturnType<typeof alertRuleInput>;
