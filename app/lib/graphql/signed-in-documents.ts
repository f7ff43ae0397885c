/*
 * The operations only a signed-in page sends (the home's places, open place, inbox and rules; Settings' lists),
 * written in signed-in-documents.graphql. Apart from documents.ts so that a visitor's first load leaves them out
 * (decision 018): the home's loader imports them once it knows someone is signed in.
 */
export {
  AlertRulesDocument as ALERT_RULES_QUERY,
  DeleteMessageDocument as DELETE_MESSAGE_MUTATION,
  InboxDocument as INBOX_QUERY,
  MarkAllReadDocument as MARK_ALL_READ_MUTATION,
  MarkReadDocument as MARK_READ_MUTATION,
  OpenPlaceDocument as OPEN_PLACE_QUERY,
  PlacesDocument as PLACES_QUERY,
  RestoreMessageDocument as RESTORE_MESSAGE_MUTATION,
} from "./signed-in-documents.generated";

/** The inbox's page size (written in the Inbox document); later pages pass the previous page's `endCursor` as `after`. */
export const INBOX_PAGE_SIZE = 30;
/** The Inbox document's variables for the first page (`after` unset) or a later one. */
export const inboxVariables = (after?: string) => (after ? { after } : {});
