/**
 * Table shapes for Kysely. Portable types only (TEXT, INTEGER, REAL): timestamps are
 * ISO-8601 UTC strings, booleans 0/1, so the same queries run on SQLite and PostgreSQL.
 */
export type UserTable = {
  id: string;
  email: string;
  password_hash: string;
  created_at: string;
};

export type SessionTable = {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  /** The User-Agent the session was opened with (shortened), if any. */
  user_agent: string | null;
};

/** When a session was last used, written at most every few minutes (auth/last-seen.server.ts). */
export type SessionActivityTable = { session_id: string; last_seen_at: string };

export type SettingsTable = {
  user_id: string;
  language: string;
  time_zone: string;
  hour12: number;
  temperature_unit: string;
  wind_speed_unit: string;
  precipitation_unit: string;
  quiet_hours_enabled: number;
  quiet_from: string;
  quiet_to: string;
  push_enabled: number;
};

export type PlaceTable = {
  id: string;
  user_id: string;
  label: string;
  name: string;
  admin1: string | null;
  country_code: string | null;
  latitude: number;
  longitude: number;
  time_zone: string;
  position: number;
  created_at: string;
};

export type ForecastCacheTable = {
  /** Rounded coordinate, e.g. "52.52,13.41". */
  coordinate_key: string;
  fetched_at: string;
  payload: string;
};

export type BriefingTable = {
  id: string;
  user_id: string;
  name: string;
  enabled: number;
  period: string;
  /** "HH:MM" in the user's time zone. */
  time: string;
  /** Weekdays, comma-separated ("MON,TUE"). */
  days: string;
  next_run_at: string | null;
  last_sent_at: string | null;
  created_at: string;
  /** Channels besides the inbox, comma-separated ("PUSH,EMAIL"; "" for the inbox alone). */
  delivery: string;
};

export type BriefingPlaceTable = { briefing_id: string; place_id: string; position: number };

export type MessageTable = {
  id: string;
  user_id: string;
  kind: string;
  title: string;
  body: string;
  created_at: string;
  read_at: string | null;
  urgent: number;
  place_id: string | null;
  briefing_id: string | null;
  dedupe_key: string;
  alert_rule_id: string | null;
  /** The AlertMatch an ALERT message is about, as JSON. */
  match_json: string | null;
  /** What the message says, as data (app/shared/message-content.ts), formatted when read; null for older messages. */
  content: string | null;
};

export type AlertRuleTable = {
  id: string;
  user_id: string;
  name: string;
  enabled: number;
  place_id: string | null;
  metric: string;
  comparator: string;
  threshold: number | null;
  /** For metric AQI: the scale of the threshold's points ("US", "EUROPEAN"), kept from when it was made (decision 031). */
  aqi_scale: string | null;
  /** Conditions, comma-separated, for metric CONDITION. */
  conditions: string | null;
  lookahead_hours: number;
  active_days: string;
  active_from: string | null;
  active_to: string | null;
  urgent: number;
  notify_all_clear: number;
  cooldown_hours: number;
  snoozed_until: string | null;
  created_at: string;
  /** When the engine first read it (null: not yet; see alerts.server.ts, the summary of new rules). */
  watched_since: string | null;
  /** When the engine must next look at it (decision 026); null: only when something of it changes. */
  next_wake_at?: string | null;
  /** A starter rule that keeps its starter's name (StarterRule): named in the reader's language. */
  starter_key: string | null;
};

export type AlertStateTable = {
  rule_id: string;
  place_id: string;
  state: string;
  episode_start: string | null;
  last_triggered_at: string | null;
};

/**
 * An announced crossing of a rule at a spot: one ALERT each (and one ALL_CLEAR). Keyed by what
 * the rule watches and the rounded coordinates, not by rule and place ids, so a place removed
 * and added again, or a rule deleted and made again, does not announce the same window twice.
 */
export type AlertEpisodeTable = {
  user_id: string;
  /** The rule's watched condition, look-ahead and active days and hours (see alerts.server.ts). */
  rule_key: string;
  /** Rounded coordinates, as the forecast cache keys them ("52.52,13.41"). */
  location_key: string;
  /** The start of the window first announced: the episode's name in its messages' dedupe keys. */
  start: string;
  /** The window as last seen in the forecast. */
  window_from: string;
  window_to: string;
  alerted_at: string;
  closed_at: string | null;
};

/**
 * What a user was told of an official warning (bot/warning-alerts.server.ts): written in the
 * transaction of the message that told it, so a warning is announced once per CAP message and
 * cleared once, across passes, restarts and instances.
 */
export type WarningStateTable = {
  user_id: string;
  /** The warnings layer's id (service and CAP chain root), as a key part (warningKeyPart). */
  warning_id: string;
  /** The CAP identifier of the message last told (a key part). */
  message_id: string;
  /** The CAP identifier the telling began with (ISSUED): names the episode's CLEARED message. */
  issued_id: string;
  /** When the service sent the message last told (ISO); an older message is never told after it. */
  sent: string | null;
  /** The places named, comma-separated ids in the user's order. */
  place_ids: string;
  /** The WarningContent last told, as JSON: what a CLEARED message says when the warning is simply gone. */
  content: string;
  told_at: string;
  /** When the user was told it is over; null while in force. */
  cleared_at: string | null;
};

export type PushSubscriptionTable = {
  id: string;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  created_at: string;
};

/** A removed place, message or briefing and what went with it, as JSON, kept for undo (removed-items.server.ts). */
export type RemovedItemTable = { kind: string; item_id: string; user_id: string; removed_at: string; snapshot: string };

/** A push held by quiet hours; `due_at` is when they end (or when a settings change asks to look again). */
export type HeldPushTable = { message_id: string; user_id: string; created_at: string; due_at: string };

/** One lock row per rate-limited key (rate-limit.server.ts): a check-and-count writes it first. */
export type RateLimitKeyTable = { rule: string; key: string; touched_at: string };

/** One counted event of a sliding-window limit. */
export type RateEventTable = { id: string; rule: string; key: string; at: string };

/** A place search result handed out: `location` is the GeocodedLocation as JSON. */
export type SearchResultTable = { id: string; location: string; expires_at: string };

/** The newest message id handed out (one row, name "messages"): see inbox.server.ts. */
export type MessageOrderTable = { name: string; last_id: string };
/** A slice of the users whose engine work one instance holds at a time (decision 010). */
export type EngineShardTable = { shard: number; owner: string | null; lease_until: string | null; done_tick: number };

export type EngineInstanceTable = { id: string; seen_at: string };

/** A coordinate's weather of one kind that rules watch: its hash when last read, and when to read it again (decision 026). */
export type WatchedFeedTable = {
  coordinate_key: string;
  feed: string;
  latitude: number;
  longitude: number;
  shard_key: string;
  content_hash: string;
  next_refresh_at: string;
};

/** A warnings area (an NWS grid point, a MeteoAlarm country) the engine watches: its hash when last read, and when next. */
export type WarningAreaTable = {
  area_key: string;
  shard_key: string;
  content_hash: string;
  /** When the answer hashed was fetched from the service (ISO; null: none could be). */
  fetched_at: string | null;
  next_refresh_at: string;
};

/** A covered place: its warnings area and a hash of the answer its owner's warnings were last decided on. */
export type WarningPlaceTable = { place_id: string; user_id: string; area_key: string; content_hash: string };

/** A user whose official warnings must be decided again (wake_at due), claimed by a pass as rules are. */
export type WarningWakeTable = { user_id: string; wake_at: string };

/** Requests counted under a general limit (request-limits.server.ts): every instance adds its own in batches. */
export type RequestCountTable = { rule: string; key: string; period: number; hits: number };

/** A mail on its way (mail/outbox.server.ts): claimed by one instance at a time, sent once. */
export type MailOutboxTable = {
  id: string;
  /** What makes it unique: queued twice, it is one row. */
  dedupe_key: string;
  /** Whose mail it is (a deleted account's mail goes with it). */
  user_id: string;
  /** PASSWORD_RESET, EMAIL_CHANGE or BRIEFING (for logs: the rest is sealed). */
  kind: string;
  /** The message (recipient, subject, text, HTML, headers) sealed with the mail key; "" once sent or given up. */
  payload: string;
  /** PENDING, SENT or FAILED. */
  state: string;
  created_at: string;
  /** Not sent after this (a reset link dead by then, a stale briefing): given up instead. */
  expires_at: string;
  next_attempt_at: string;
  attempts: number;
  lease_owner: string | null;
  lease_until: string | null;
  sent_at: string | null;
  last_error: string | null;
};

/** A single-use link sent by mail (auth/account-tokens.server.ts): its token's SHA-256, whose it is, what for. */
export type AccountTokenTable = {
  token_hash: string;
  /** PASSWORD_RESET or EMAIL_CHANGE. */
  purpose: string;
  user_id: string;
  /** The new address an email change confirms. */
  email: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
};

export type Database = {
  users: UserTable;
  sessions: SessionTable;
  session_activity: SessionActivityTable;
  settings: SettingsTable;
  places: PlaceTable;
  forecast_cache: ForecastCacheTable;
  /** Air quality per rounded coordinate, cached as forecasts are. */
  air_quality_cache: ForecastCacheTable;
  briefings: BriefingTable;
  briefing_places: BriefingPlaceTable;
  messages: MessageTable;
  alert_rules: AlertRuleTable;
  removed_items: RemovedItemTable;
  alert_states: AlertStateTable;
  alert_episodes: AlertEpisodeTable;
  warning_states: WarningStateTable;
  push_subscriptions: PushSubscriptionTable;
  held_pushes: HeldPushTable;
  rate_limit_keys: RateLimitKeyTable;
  rate_events: RateEventTable;
  search_results: SearchResultTable;
  message_order: MessageOrderTable;
  engine_shards: EngineShardTable;
  engine_instances: EngineInstanceTable;
  watched_feeds: WatchedFeedTable;
  warning_areas: WarningAreaTable;
  warning_places: WarningPlaceTable;
  warning_wakes: WarningWakeTable;
  request_counts: RequestCountTable;
  mail_outbox: MailOutboxTable;
  account_tokens: AccountTokenTable;
};
