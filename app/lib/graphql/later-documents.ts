/*
 * The operations no page needs for its first paint (overlays, settings, the cache's own writes, a visitor's lookup),
 * written in later-documents.graphql. Apart from documents.ts so that they stay out of the first load: a module that
 * re-exported both would bring every one of them wherever one screen document is used.
 */
export {
  AccountSessionsDocument as ACCOUNT_SESSIONS_QUERY,
  AddAlertRulesDocument as ADD_ALERT_RULES_MUTATION,
  AddPlaceDocument as ADD_PLACE_MUTATION,
  AddPlaceAtDocument as ADD_PLACE_AT_MUTATION,
  PlaceDayDocument as PLACE_DAY_QUERY,
  PlaceWarningsDocument as PLACE_WARNINGS_QUERY,
  BriefingsDocument as BRIEFINGS_QUERY,
  DeleteAlertRuleDocument as DELETE_ALERT_RULE_MUTATION,
  DeleteBriefingDocument as DELETE_BRIEFING_MUTATION,
  DeletePushSubscriptionDocument as DELETE_PUSH_SUBSCRIPTION_MUTATION,
  MailAvailableDocument as MAIL_AVAILABLE_QUERY,
  PreviewAlertRuleDocument as PREVIEW_ALERT_RULE_QUERY,
  PushPublicKeyDocument as PUSH_PUBLIC_KEY_QUERY,
  RemovePlaceDocument as REMOVE_PLACE_MUTATION,
  RenamePlaceDocument as RENAME_PLACE_MUTATION,
  ReorderPlacesDocument as REORDER_PLACES_MUTATION,
  RestoreBriefingDocument as RESTORE_BRIEFING_MUTATION,
  RestorePlaceDocument as RESTORE_PLACE_MUTATION,
  ResumeAlertRuleDocument as RESUME_ALERT_RULE_MUTATION,
  SaveAlertRuleDocument as SAVE_ALERT_RULE_MUTATION,
  SaveBriefingDocument as SAVE_BRIEFING_MUTATION,
  SavePushSubscriptionDocument as SAVE_PUSH_SUBSCRIPTION_MUTATION,
  SendBriefingNowDocument as SEND_BRIEFING_NOW_MUTATION,
  SettingsDocument as SETTINGS_QUERY,
  SnoozeAlertRuleDocument as SNOOZE_ALERT_RULE_MUTATION,
  UpdateSettingsDocument as UPDATE_SETTINGS_MUTATION,
  WeatherAtDocument as WEATHER_AT_QUERY,
} from "./later-documents.generated";
