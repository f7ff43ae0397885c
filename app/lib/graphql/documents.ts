import { gql } from "@urql/core";
import type { Weekday } from "../weekdays";

export type MessageKind = "BRIEFING" | "ALERT" | "ALL_CLEAR" | "SYSTEM";
export type MessageFields = {
  __typename?: "Message";
  id: string;
  kind: MessageKind;
  title: string;
  body: string;
  createdAt: string;
  readAt: string | null;
  urgent: boolean;
};
export type Viewer = {
  id: string;
  email: string;
  unreadCount: number;
  settings: ViewerSettings;
};
export type ViewerSettings = {
  id: string;
  timeZone: string;
  hour12: boolean;
  temperatureUnit: "CELSIUS" | "FAHRENHEIT";
  windSpeedUnit: "KMH" | "MS" | "MPH" | "KN";
  precipitationUnit: "MM" | "INCH";
};
export type Condition =
  | "CLEAR"
  | "MAINLY_CLEAR"
  | "PARTLY_CLOUDY"
  | "OVERCAST"
  | "FOG"
  | "DRIZZLE"
  | "FREEZING_DRIZZLE"
  | "RAIN"
  | "FREEZING_RAIN"
  | "SNOW"
  | "SNOW_GRAINS"
  | "RAIN_SHOWERS"
  | "SNOW_SHOWERS"
  | "THUNDERSTORM"
  | "THUNDERSTORM_WITH_HAIL"
  | "UNKNOWN";
export type CurrentConditions = {
  id: string;
  time: string;
  condition: Condition;
  isDay: boolean;
  temperature: number;
  apparentTemperature: number;
  precipitation: number;
  windSpeed: number;
  windGusts: number;
  uvIndex: number;
};
export type HourlyForecast = {
  id: string;
  time: string;
  condition: Condition;
  isDay: boolean;
  temperature: number;
  precipitation: number;
  precipitationProbability: number;
};
export type DailyForecast = {
  id: string;
  date: string;
  condition: Condition;
  temperatureMax: number;
  temperatureMin: number;
  precipitationSum: number;
  precipitationProbabilityMax: number;
};
export type WeatherReport = {
  id: string;
  fetchedAt: string;
  stale: boolean;
  timeZone: string;
  current: CurrentConditions;
  hourly: HourlyForecast[];
  daily: DailyForecast[];
};
export type PlaceSummary = {
  id: string;
  label: string;
  name: string;
  admin1: string | null;
  countryCode: string | null;
  latitude: number;
  longitude: number;
  timeZone: string;
  weather: WeatherReport;
};
type NoVariables = Record<string, never>;

/*
 * The operations the screens read. Each is shared by the route's server loader (which
 * runs it for the page's first render and serialises the result) and the component that
 * reads it cache-first, so the two hit the same cache entry.
 */

/** Who is signed in, and the header's unread badge. `me` is null for a visitor. */
export const VIEWER_QUERY = gql<{ me: Viewer | null }, NoVariables>`
  query Viewer {
    me {
      id
      email
      unreadCount
      settings {
        id
        timeZone
        hour12
        temperatureUnit
        windSpeedUnit
        precipitationUnit
      }
    }
  }
`;

/** The fields every message carries, wherever it comes from (inbox page, live stream, "send now"). */
export const MESSAGE_FIELDS = gql`
  fragment MessageFields on Message {
    id
    kind
    title
    body
    createdAt
    readAt
    urgent
  }
`;

/** The inbox's first page; later pages pass the previous page's `endCursor` as `after`. */
export const INBOX_PAGE_SIZE = 30;

export const INBOX_QUERY = gql<
  { messages: { edges: MessageFields[]; endCursor: string | null; hasMore: boolean } },
  { after?: string; first: number }
>`
  query Inbox($after: String, $first: Int) {
    messages(after: $after, first: $first) {
      edges {
        ...MessageFields
      }
      endCursor
      hasMore
    }
  }
  ${MESSAGE_FIELDS}
`;

/** Everything a forecast card shows; the visitor's lookup reads the same fields. */
export const WEATHER_FIELDS = gql`
  fragment WeatherFields on Weather {
    id
    fetchedAt
    stale
    timeZone
    current {
      id
      time
      condition
      isDay
      temperature
      apparentTemperature
      precipitation
      windSpeed
      windGusts
      uvIndex
    }
    hourly(hours: 48) {
      id
      time
      condition
      isDay
      temperature
      precipitation
      precipitationProbability
    }
    daily(days: 7) {
      id
      date
      condition
      temperatureMax
      temperatureMin
      precipitationSum
      precipitationProbabilityMax
    }
  }
`;

/** A saved place as its card shows it. */
export const PLACE_FIELDS = gql`
  fragment PlaceFields on Place {
    id
    label
    name
    admin1
    countryCode
    latitude
    longitude
    timeZone
    weather {
      ...WeatherFields
    }
  }
  ${WEATHER_FIELDS}
`;

export const PLACES_QUERY = gql<{ me: { id: string; places: PlaceSummary[] } | null }, NoVariables>`
  query Places {
    me {
      id
      places {
        ...PlaceFields
      }
    }
  }
  ${PLACE_FIELDS}
`;

export type LocationResult = {
  id: string;
  name: string;
  admin1: string | null;
  country: string | null;
  countryCode: string | null;
  latitude: number;
  longitude: number;
  timeZone: string;
};

export const SEARCH_LOCATIONS_QUERY = gql<{ searchLocations: LocationResult[] }, { query: string }>`
  query SearchLocations($query: String!) {
    searchLocations(query: $query, count: 8) {
      id
      name
      admin1
      country
      countryCode
      latitude
      longitude
      timeZone
    }
  }
`;

/** The visitor's ad-hoc lookup. */
export const WEATHER_AT_QUERY = gql<{ weatherAt: WeatherReport }, { latitude: number; longitude: number }>`
  query WeatherAt($latitude: Float!, $longitude: Float!) {
    weatherAt(latitude: $latitude, longitude: $longitude) {
      ...WeatherFields
    }
  }
  ${WEATHER_FIELDS}
`;

/** Adds a place found by search; the new card comes back complete, so the list needs no refetch. */
export const ADD_PLACE_MUTATION = gql<{ addPlace: PlaceSummary }, { locationId: string; label?: string }>`
  mutation AddPlace($locationId: ID!, $label: String) {
    addPlace(locationId: $locationId, label: $label) {
      ...PlaceFields
    }
  }
  ${PLACE_FIELDS}
`;

/** New messages as they are written; `after` is the last one this client has (catch-up on reconnect). */
export const MESSAGE_RECEIVED_SUBSCRIPTION = gql<{ messageReceived: MessageFields }, { after: string | null }>`
  subscription MessageReceived($after: ID) {
    messageReceived(after: $after) {
      ...MessageFields
    }
  }
  ${MESSAGE_FIELDS}
`;

/** Marks messages read; the recipient's unread count comes back with them and merges into the cache by key. */
export const MARK_READ_MUTATION = gql<{ markRead: Array<Pick<MessageFields, "id" | "readAt">> }, { ids: string[] }>`
  mutation MarkRead($ids: [ID!]!) {
    markRead(ids: $ids) {
      id
      readAt
    }
  }
`;

export const MARK_ALL_READ_MUTATION = gql<{ markAllRead: { id: string; unreadCount: number } }, NoVariables>`
  mutation MarkAllRead {
    markAllRead {
      id
      unreadCount
    }
  }
`;

export const DELETE_MESSAGE_MUTATION = gql<{ deleteMessage: string }, { id: string }>`
  mutation DeleteMessage($id: ID!) {
    deleteMessage(id: $id)
  }
`;

/** Undo of a deleted message (within 10 minutes): it goes back into its page of the inbox. */
export const RESTORE_MESSAGE_MUTATION = gql<{ restoreMessage: MessageFields }, { id: string }>`
  mutation RestoreMessage($id: ID!) {
    restoreMessage(id: $id) {
      ...MessageFields
    }
  }
  ${MESSAGE_FIELDS}
`;

export type FullSettings = ViewerSettings & {
  language: "EN_US" | "DE_DE" | "FR_FR" | "ES_ES";
  quietHoursEnabled: boolean;
  quietFrom: string;
  quietTo: string;
  pushEnabled: boolean;
};

const SETTINGS_FIELDS = gql`
  fragment SettingsFields on Settings {
    id
    language
    timeZone
    hour12
    temperatureUnit
    windSpeedUnit
    precipitationUnit
    quietHoursEnabled
    quietFrom
    quietTo
    pushEnabled
  }
`;

export const SETTINGS_QUERY = gql<{ me: { id: string; settings: FullSettings } | null }, NoVariables>`
  query Settings {
    me {
      id
      settings {
        ...SettingsFields
      }
    }
  }
  ${SETTINGS_FIELDS}
`;

export type SettingsInput = Partial<Omit<FullSettings, "id">>;

/** Saves preferences; the answer merges into every cached view of them (cards change units at once). */
export const UPDATE_SETTINGS_MUTATION = gql<{ updateSettings: FullSettings }, { input: SettingsInput }>`
  mutation UpdateSettings($input: SettingsInput!) {
    updateSettings(input: $input) {
      ...SettingsFields
    }
  }
  ${SETTINGS_FIELDS}
`;

/** Puts a removed place back (undo): the same place, with its rules and briefing slots. */
export const RESTORE_PLACE_MUTATION = gql<{ restorePlace: PlaceSummary & { position: number } }, { id: string }>`
  mutation RestorePlace($id: ID!) {
    restorePlace(id: $id) {
      ...PlaceFields
      position
    }
  }
  ${PLACE_FIELDS}
`;

export const RENAME_PLACE_MUTATION = gql<{ renamePlace: { id: string; label: string } }, { id: string; label: string }>`
  mutation RenamePlace($id: ID!, $label: String!) {
    renamePlace(id: $id, label: $label) {
      id
      label
    }
  }
`;

export const REORDER_PLACES_MUTATION = gql<{ reorderPlaces: Array<{ id: string; position: number }> }, { ids: string[] }>`
  mutation ReorderPlaces($ids: [ID!]!) {
    reorderPlaces(ids: $ids) {
      id
      position
    }
  }
`;

export const REMOVE_PLACE_MUTATION = gql<{ removePlace: string }, { id: string }>`
  mutation RemovePlace($id: ID!) {
    removePlace(id: $id)
  }
`;

export { WEEKDAYS, type Weekday } from "../weekdays";
export type BriefingPeriod = "TODAY" | "REST_OF_TODAY" | "TONIGHT" | "TOMORROW" | "NEXT_3_DAYS";
export const BRIEFING_PERIODS: BriefingPeriod[] = ["TODAY", "REST_OF_TODAY", "TONIGHT", "TOMORROW", "NEXT_3_DAYS"];

export type Briefing = {
  id: string;
  name: string;
  enabled: boolean;
  places: Array<{ id: string; label: string }>;
  period: BriefingPeriod;
  time: string;
  days: Weekday[];
  nextRunAt: string | null;
  lastSentAt: string | null;
};

const BRIEFING_FIELDS = gql`
  fragment BriefingFields on Briefing {
    id
    name
    enabled
    places {
      id
      label
    }
    period
    time
    days
    nextRunAt
    lastSentAt
  }
`;

export const BRIEFINGS_QUERY = gql<{ briefings: Briefing[] }, NoVariables>`
  query Briefings {
    briefings {
      ...BriefingFields
    }
  }
  ${BRIEFING_FIELDS}
`;

export type BriefingInput = Pick<Briefing, "name" | "enabled" | "period" | "time" | "days"> & { placeIds: string[] };

export const SAVE_BRIEFING_MUTATION = gql<{ saveBriefing: Briefing }, { id?: string; input: BriefingInput }>`
  mutation SaveBriefing($id: ID, $input: BriefingInput!) {
    saveBriefing(id: $id, input: $input) {
      ...BriefingFields
    }
  }
  ${BRIEFING_FIELDS}
`;

export const DELETE_BRIEFING_MUTATION = gql<{ deleteBriefing: string }, { id: string }>`
  mutation DeleteBriefing($id: ID!) {
    deleteBriefing(id: $id)
  }
`;

/** Undo of a deleted briefing (within 10 minutes). */
export const RESTORE_BRIEFING_MUTATION = gql<{ restoreBriefing: Briefing }, { id: string }>`
  mutation RestoreBriefing($id: ID!) {
    restoreBriefing(id: $id) {
      ...BriefingFields
    }
  }
  ${BRIEFING_FIELDS}
`;

/** "Send a test briefing now": the message lands in the inbox (and the list, through the cache). */
export const SEND_BRIEFING_NOW_MUTATION = gql<{ sendBriefingNow: MessageFields }, { id: string }>`
  mutation SendBriefingNow($id: ID!) {
    sendBriefingNow(id: $id) {
      ...MessageFields
    }
  }
  ${MESSAGE_FIELDS}
`;

export type AlertRule = {
  id: string;
  name: string;
  enabled: boolean;
  place: { id: string; label: string } | null;
  metric: import("../alert-units").AlertMetric;
  comparator: "AT_LEAST" | "AT_MOST";
  threshold: number | null;
  conditions: Condition[] | null;
  lookaheadHours: number;
  urgent: boolean;
  notifyAllClear: boolean;
  cooldownHours: number;
  activeDays: Weekday[];
  /** "HH:MM" in the user's time zone; both null: all day. */
  activeFrom: string | null;
  activeTo: string | null;
  state: "ARMED" | "TRIGGERED" | "SNOOZED";
  snoozedUntil: string | null;
};

const ALERT_RULE_FIELDS = gql`
  fragment AlertRuleFields on AlertRule {
    id
    name
    enabled
    place {
      id
      label
    }
    metric
    comparator
    threshold
    conditions
    lookaheadHours
    urgent
    notifyAllClear
    cooldownHours
    activeDays
    activeFrom
    activeTo
    state
    snoozedUntil
  }
`;

export const ALERT_RULES_QUERY = gql<{ alertRules: AlertRule[] }, NoVariables>`
  query AlertRules {
    alertRules {
      ...AlertRuleFields
    }
  }
  ${ALERT_RULE_FIELDS}
`;

export type AlertRuleInput = Pick<
  AlertRule,
  | "name"
  | "enabled"
  | "metric"
  | "comparator"
  | "threshold"
  | "conditions"
  | "lookaheadHours"
  | "urgent"
  | "notifyAllClear"
  | "cooldownHours"
  | "activeDays"
  | "activeFrom"
  | "activeTo"
> & {
  placeId: string | null;
};

/** Everything a saved rule's input holds, so a quick change (on/off) keeps the rest as it is. */
export function alertRuleInput(rule: AlertRule): AlertRuleInput {
  const { id: _id, place, state: _state, snoozedUntil: _snoozedUntil, ...fields } = rule;
  return { ...fields, placeId: place?.id ?? null };
}

export const SAVE_ALERT_RULE_MUTATION = gql<{ saveAlertRule: AlertRule }, { id?: string; input: AlertRuleInput }>`
  mutation SaveAlertRule($id: ID, $input: AlertRuleInput!) {
    saveAlertRule(id: $id, input: $input) {
      ...AlertRuleFields
    }
  }
  ${ALERT_RULE_FIELDS}
`;

export const SNOOZE_ALERT_RULE_MUTATION = gql<{ snoozeAlertRule: AlertRule }, { id: string; until?: string }>`
  mutation SnoozeAlertRule($id: ID!, $until: DateTime) {
    snoozeAlertRule(id: $id, until: $until) {
      ...AlertRuleFields
    }
  }
  ${ALERT_RULE_FIELDS}
`;

export const RESUME_ALERT_RULE_MUTATION = gql<{ resumeAlertRule: AlertRule }, { id: string }>`
  mutation ResumeAlertRule($id: ID!) {
    resumeAlertRule(id: $id) {
      ...AlertRuleFields
    }
  }
  ${ALERT_RULE_FIELDS}
`;

export const DELETE_ALERT_RULE_MUTATION = gql<{ deleteAlertRule: string }, { id: string }>`
  mutation DeleteAlertRule($id: ID!) {
    deleteAlertRule(id: $id)
  }
`;

export type AlertMatch = { id: string; place: { id: string; label: string }; from: string; to: string; peakAt: string; peakValue: number };

/** When a rule being edited would fire over the next hours (nothing is saved). */
export const PREVIEW_ALERT_RULE_QUERY = gql<{ previewAlertRule: AlertMatch[] }, { input: AlertRuleInput }>`
  query PreviewAlertRule($input: AlertRuleInput!) {
    previewAlertRule(input: $input) {
      id
      place {
        id
        label
      }
      from
      to
      peakAt
      peakValue
    }
  }
`;

/** The VAPID key this browser subscribes with (pushManager.subscribe's applicationServerKey). */
export const PUSH_PUBLIC_KEY_QUERY = gql<{ pushPublicKey: string }, NoVariables>`
  query PushPublicKey {
    pushPublicKey
  }
`;

export const SAVE_PUSH_SUBSCRIPTION_MUTATION = gql<{ savePushSubscription: boolean }, { endpoint: string; p256dh: string; auth: string }>`
  mutation SavePushSubscription($endpoint: String!, $p256dh: String!, $auth: String!) {
    savePushSubscription(endpoint: $endpoint, p256dh: $p256dh, auth: $auth)
  }
`;

export const DELETE_PUSH_SUBSCRIPTION_MUTATION = gql<{ deletePushSubscription: boolean }, { endpoint: string }>`
  mutation DeletePushSubscription($endpoint: String!) {
    deletePushSubscription(endpoint: $endpoint)
  }
`;
