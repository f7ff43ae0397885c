/*
 * The operations the screens read, written in documents.graphql and typed by `npm run codegen`
 * (documents.generated.ts: each document carries its result and variable types). Each is shared by the
 * route's server loader (which runs it for the page's first render and serialises the result) and the
 * component that reads it cache-first, so the two hit the same cache entry.
 */
import type { AlertRuleFieldsFragment, AlertRuleInput } from "./documents.generated";

export {
  AddPlaceDocument as ADD_PLACE_MUTATION,
  AlertRulesDocument as ALERT_RULES_QUERY,
  BriefingsDocument as BRIEFINGS_QUERY,
  DeleteAlertRuleDocument as DELETE_ALERT_RULE_MUTATION,
  DeleteBriefingDocument as DELETE_BRIEFING_MUTATION,
  DeleteMessageDocument as DELETE_MESSAGE_MUTATION,
  DeletePushSubscriptionDocument as DELETE_PUSH_SUBSCRIPTION_MUTATION,
  InboxDocument as INBOX_QUERY,
  MarkAllReadDocument as MARK_ALL_READ_MUTATION,
  MarkReadDocument as MARK_READ_MUTATION,
  MessageFieldsFragmentDoc as MESSAGE_FIELDS,
  MessageReceivedDocument as MESSAGE_RECEIVED_SUBSCRIPTION,
  PlaceFieldsFragmentDoc as PLACE_FIELDS,
  PlacesDocument as PLACES_QUERY,
  PreviewAlertRuleDocument as PREVIEW_ALERT_RULE_QUERY,
  PushPublicKeyDocument as PUSH_PUBLIC_KEY_QUERY,
  RemovePlaceDocument as REMOVE_PLACE_MUTATION,
  RenamePlaceDocument as RENAME_PLACE_MUTATION,
  ReorderPlacesDocument as REORDER_PLACES_MUTATION,
  RestoreBriefingDocument as RESTORE_BRIEFING_MUTATION,
  RestoreMessageDocument as RESTORE_MESSAGE_MUTATION,
  RestorePlaceDocument as RESTORE_PLACE_MUTATION,
  ResumeAlertRuleDocument as RESUME_ALERT_RULE_MUTATION,
  SaveAlertRuleDocument as SAVE_ALERT_RULE_MUTATION,
  SaveBriefingDocument as SAVE_BRIEFING_MUTATION,
  SavePushSubscriptionDocument as SAVE_PUSH_SUBSCRIPTION_MUTATION,
  SearchLocationsDocument as SEARCH_LOCATIONS_QUERY,
  SendBriefingNowDocument as SEND_BRIEFING_NOW_MUTATION,
  SettingsDocument as SETTINGS_QUERY,
  SnoozeAlertRuleDocument as SNOOZE_ALERT_RULE_MUTATION,
  UpdateSettingsDocument as UPDATE_SETTINGS_MUTATION,
  ViewerDocument as VIEWER_QUERY,
  WeatherAtDocument as WEATHER_AT_QUERY,
  WeatherFieldsFragmentDoc as WEATHER_FIELDS,
} from "./documents.generated";

/** The inbox's page size (written in the Inbox document); later pages pass the previous page's `endCursor` as `after`. */
export const INBOX_PAGE_SIZE = 30;

/** Everything a saved rule's input holds, so a quick change (on/off) keeps the rest as it is. */
export function alertRuleInput(rule: AlertRuleFieldsFragment) {
  const { id: _id, place, state: _state, snoozedUntil: _snoozedUntil, ...fields } = rule;
  return { ...fields, placeId: place?.id ?? null } satisfies AlertRuleInput;
}

/** A rule's whole input, every field given (the rule editor's draft, the starter rules). */
export type CompleteAlertRuleInput = ReturnType<typeof alertRuleInput>;
