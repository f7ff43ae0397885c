import { PostgresAdapter, sql, type Kysely, type Migration } from "kysely";
import { columnTypes } from "./column-types.server";

/**
 * Versioned schema changes, applied in name order on startup. Kysely's migrator records
 * each one, so running them again is a no-op. Never edit a migration that has shipped:
 * add the next one.
 *
 * A migration imports nothing of the domain (ESLint refuses it): the domain's keys and constants
 * below are frozen copies, on purpose, as they were when their migration was written. A database
 * upgraded next year must get what one upgraded on the day got; when the domain's version changes,
 * the change is a new migration, and these stay as they are.
 */

/** Frozen for 0006 (app/api/weather/forecast.ts's coordinateKey then): a place's coordinates rounded to 0.01°. */
function coordinateKey0006({ latitude, longitude }: { latitude: number; longitude: number }): string {
  return `${(Math.round(latitude * 100) / 100).toFixed(2)},${(Math.round(longitude * 100) / 100).toFixed(2)}`;
}

/** An alert rule's columns that 0006's rule key reads. */
type WatchedRule0006 = {
  metric: string;
  comparator: string;
  threshold: number | null;
  conditions: string | null;
  lookahead_hours: number;
  active_days: string;
  active_from: string | null;
  active_to: string | null;
};

/** Frozen for 0006 (app/api/bot/rule-key.ts's ruleKey then): what an alert rule watches, as its episodes' key. */
function ruleKey0006(rule: WatchedRule0006): string {
  const watched = rule.metric === "CONDITION" ? (rule.conditions ?? "") : `${rule.comparator}${rule.threshold}`;
  return [rule.metric, watched, `${rule.lookahead_hours}h`, rule.active_days, rule.active_from ?? "", rule.active_to ?? ""].join("|");
}

/** Frozen for 0010 (app/api/bot/shard-ranges.ts's ENGINE_SHARDS then): the engine's shards, one row each. */
const ENGINE_SHARDS_0010 = 16;

export const migrations: Record<string, Migration> = {
  "0001_accounts_places": {
    async up(db: Kysely<unknown>) {
      const { real } = columnTypes(db);
      await db.schema
        .createTable("users")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("email", "text", (col) => col.notNull().unique())
        .addColumn("password_hash", "text", (col) => col.notNull())
        .addColumn("created_at", "text", (col) => col.notNull())
        .execute();

      await db.schema
        .createTable("sessions")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
        .addColumn("token_hash", "text", (col) => col.notNull().unique())
        .addColumn("created_at", "text", (col) => col.notNull())
        .addColumn("expires_at", "text", (col) => col.notNull())
        .addColumn("revoked_at", "text")
        .execute();
      await db.schema.createIndex("sessions_user_id").on("sessions").column("user_id").execute();

      await db.schema
        .createTable("settings")
        .addColumn("user_id", "text", (col) => col.primaryKey().references("users.id").onDelete("cascade"))
        .addColumn("language", "text", (col) => col.notNull())
        .addColumn("time_zone", "text", (col) => col.notNull())
        .addColumn("hour12", "integer", (col) => col.notNull())
        .addColumn("temperature_unit", "text", (col) => col.notNull())
        .addColumn("wind_speed_unit", "text", (col) => col.notNull())
        .addColumn("precipitation_unit", "text", (col) => col.notNull())
        .addColumn("quiet_hours_enabled", "integer", (col) => col.notNull())
        .addColumn("quiet_from", "text", (col) => col.notNull())
        .addColumn("quiet_to", "text", (col) => col.notNull())
        .addColumn("push_enabled", "integer", (col) => col.notNull())
        .execute();

      await db.schema
        .createTable("places")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
        .addColumn("label", "text", (col) => col.notNull())
        .addColumn("name", "text", (col) => col.notNull())
        .addColumn("admin1", "text")
        .addColumn("country_code", "text")
        .addColumn("latitude", real, (col) => col.notNull())
        .addColumn("longitude", real, (col) => col.notNull())
        .addColumn("time_zone", "text", (col) => col.notNull())
        .addColumn("position", "integer", (col) => col.notNull())
        .addColumn("created_at", "text", (col) => col.notNull())
        .execute();
      await db.schema.createIndex("places_user_position").on("places").columns(["user_id", "position"]).execute();

      await db.schema
        .createTable("forecast_cache")
        .addColumn("coordinate_key", "text", (col) => col.primaryKey())
        .addColumn("fetched_at", "text", (col) => col.notNull())
        .addColumn("payload", "text", (col) => col.notNull())
        .execute();
    },
  },
  "0002_inbox_briefings": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("briefings")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
        .addColumn("name", "text", (col) => col.notNull())
        .addColumn("enabled", "integer", (col) => col.notNull())
        .addColumn("period", "text", (col) => col.notNull())
        .addColumn("time", "text", (col) => col.notNull())
        .addColumn("days", "text", (col) => col.notNull())
        .addColumn("next_run_at", "text")
        .addColumn("last_sent_at", "text")
        .addColumn("created_at", "text", (col) => col.notNull())
        .execute();
      await db.schema.createIndex("briefings_due").on("briefings").columns(["enabled", "next_run_at"]).execute();

      await db.schema
        .createTable("briefing_places")
        .addColumn("briefing_id", "text", (col) => col.notNull().references("briefings.id").onDelete("cascade"))
        .addColumn("place_id", "text", (col) => col.notNull().references("places.id").onDelete("cascade"))
        .addColumn("position", "integer", (col) => col.notNull())
        .addPrimaryKeyConstraint("briefing_places_pk", ["briefing_id", "place_id"])
        .execute();

      await db.schema
        .createTable("messages")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
        .addColumn("kind", "text", (col) => col.notNull())
        .addColumn("title", "text", (col) => col.notNull())
        .addColumn("body", "text", (col) => col.notNull())
        .addColumn("created_at", "text", (col) => col.notNull())
        .addColumn("read_at", "text")
        .addColumn("urgent", "integer", (col) => col.notNull())
        .addColumn("place_id", "text", (col) => col.references("places.id").onDelete("set null"))
        .addColumn("briefing_id", "text", (col) => col.references("briefings.id").onDelete("set null"))
        // What makes a message unique (briefing + due time, rule + episode): written once, whatever happens.
        .addColumn("dedupe_key", "text", (col) => col.notNull().unique())
        .execute();
      await db.schema.createIndex("messages_user_created").on("messages").columns(["user_id", "created_at", "id"]).execute();
    },
  },
  "0003_alert_rules": {
    async up(db: Kysely<unknown>) {
      const { real } = columnTypes(db);
      await db.schema
        .createTable("alert_rules")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
        .addColumn("name", "text", (col) => col.notNull())
        .addColumn("enabled", "integer", (col) => col.notNull())
        // Null: every place of the user.
        .addColumn("place_id", "text", (col) => col.references("places.id").onDelete("cascade"))
        .addColumn("metric", "text", (col) => col.notNull())
        .addColumn("comparator", "text", (col) => col.notNull())
        .addColumn("threshold", real)
        .addColumn("conditions", "text")
        .addColumn("lookahead_hours", "integer", (col) => col.notNull())
        .addColumn("active_days", "text", (col) => col.notNull())
        .addColumn("active_from", "text")
        .addColumn("active_to", "text")
        .addColumn("urgent", "integer", (col) => col.notNull())
        .addColumn("notify_all_clear", "integer", (col) => col.notNull())
        .addColumn("cooldown_hours", "integer", (col) => col.notNull())
        .addColumn("snoozed_until", "text")
        .addColumn("created_at", "text", (col) => col.notNull())
        .execute();
      await db.schema.createIndex("alert_rules_user").on("alert_rules").column("user_id").execute();

      // One state machine per rule and place: ARMED, or TRIGGERED since an episode began.
      await db.schema
        .createTable("alert_states")
        .addColumn("rule_id", "text", (col) => col.notNull().references("alert_rules.id").onDelete("cascade"))
        .addColumn("place_id", "text", (col) => col.notNull().references("places.id").onDelete("cascade"))
        .addColumn("state", "text", (col) => col.notNull())
        .addColumn("episode_start", "text")
        .addColumn("last_triggered_at", "text")
        .addPrimaryKeyConstraint("alert_states_pk", ["rule_id", "place_id"])
        .execute();

      await db.schema.alterTable("messages").addColumn("alert_rule_id", "text").execute();
      await db.schema.alterTable("messages").addColumn("match_json", "text").execute();
    },
  },
  "0004_push": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("push_subscriptions")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
        .addColumn("endpoint", "text", (col) => col.notNull().unique())
        .addColumn("p256dh", "text", (col) => col.notNull())
        .addColumn("auth", "text", (col) => col.notNull())
        .addColumn("created_at", "text", (col) => col.notNull())
        .execute();
      // Pushes held back by quiet hours, sent later as one digest.
      await db.schema
        .createTable("held_pushes")
        .addColumn("message_id", "text", (col) => col.primaryKey().references("messages.id").onDelete("cascade"))
        .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
        .addColumn("created_at", "text", (col) => col.notNull())
        .execute();
    },
  },
  "0005_removed_places": {
    async up(db: Kysely<unknown>) {
      // What removing a place took with it (its rules, briefing slots, alert states), so undo can put it all back.
      await db.schema
        .createTable("removed_places")
        .addColumn("place_id", "text", (col) => col.primaryKey())
        .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
        .addColumn("removed_at", "text", (col) => col.notNull())
        .addColumn("snapshot", "text", (col) => col.notNull())
        .execute();
      await db.schema.createIndex("removed_places_user").on("removed_places").columns(["user_id", "removed_at"]).execute();
    },
  },
  "0006_alert_episodes": {
    async up(db: Kysely<unknown>) {
      // Every separate window of a rule is an episode of its own (one ALERT each), remembered by spot.
      await db.schema
        .createTable("alert_episodes")
        .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
        .addColumn("rule_key", "text", (col) => col.notNull())
        .addColumn("location_key", "text", (col) => col.notNull())
        .addColumn("start", "text", (col) => col.notNull())
        .addColumn("window_from", "text", (col) => col.notNull())
        .addColumn("window_to", "text", (col) => col.notNull())
        .addColumn("alerted_at", "text", (col) => col.notNull())
        .addColumn("closed_at", "text")
        .addPrimaryKeyConstraint("alert_episodes_pk", ["user_id", "rule_key", "location_key", "start"])
        .execute();
      await db.schema.createIndex("alert_episodes_alerted").on("alert_episodes").column("alerted_at").execute();

      // Episodes triggered before this version stay announced: their window comes from the alert that told them.
      const { rows } = await sql<
        WatchedRule0006 & {
          user_id: string;
          latitude: number;
          longitude: number;
          episode_start: string;
          last_triggered_at: string | null;
          match_json: string | null;
        }
      >`
        SELECT r.user_id, r.metric, r.comparator, r.threshold, r.conditions, r.lookahead_hours, r.active_days, r.active_from,
          r.active_to, p.latitude, p.longitude, s.episode_start, s.last_triggered_at, m.match_json
        FROM alert_states s
        JOIN alert_rules r ON r.id = s.rule_id
        JOIN places p ON p.id = s.place_id
        LEFT JOIN messages m ON m.dedupe_key = 'alert:' || s.rule_id || ':' || s.place_id || ':' || s.episode_start
        WHERE s.state = 'TRIGGERED' AND s.episode_start IS NOT NULL
      `.execute(db);
      for (const row of rows) {
        const match = row.match_json ? (JSON.parse(row.match_json) as { from: number; to: number }) : null;
        const from = match ? new Date(match.from * 1000).toISOString() : row.episode_start;
        const to = match ? new Date(match.to * 1000).toISOString() : new Date(Date.parse(row.episode_start) + 3_600_000).toISOString();
        await sql`
          INSERT INTO alert_episodes (user_id, rule_key, location_key, start, window_from, window_to, alerted_at, closed_at)
          VALUES (${row.user_id}, ${ruleKey0006(row)}, ${coordinateKey0006(row)}, ${row.episode_start}, ${from}, ${to},
            ${row.last_triggered_at ?? row.episode_start}, NULL)
          ON CONFLICT DO NOTHING
        `.execute(db);
      }
    },
  },
  "0007_removed_items": {
    async up(db: Kysely<unknown>) {
      // Messages and briefings get the same undo as places: one store for every kind.
      await db.schema
        .createTable("removed_items")
        .addColumn("kind", "text", (col) => col.notNull())
        .addColumn("item_id", "text", (col) => col.notNull())
        .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
        .addColumn("removed_at", "text", (col) => col.notNull())
        .addColumn("snapshot", "text", (col) => col.notNull())
        .addPrimaryKeyConstraint("removed_items_pk", ["kind", "item_id"])
        .execute();
      await db.schema.createIndex("removed_items_user").on("removed_items").columns(["user_id", "removed_at"]).execute();
      await sql`INSERT INTO removed_items (kind, item_id, user_id, removed_at, snapshot)
        SELECT 'place', place_id, user_id, removed_at, snapshot FROM removed_places`.execute(db);
      await db.schema.dropTable("removed_places").execute();
    },
  },
  "0009_shared_state": {
    async up(db: Kysely<unknown>) {
      // Sliding-window limits every instance counts against: one row per event, and one lock row
      // per key that a check-and-count writes first (see rate-limit.server.ts).
      await db.schema
        .createTable("rate_limit_keys")
        .addColumn("rule", "text", (col) => col.notNull())
        .addColumn("key", "text", (col) => col.notNull())
        .addColumn("touched_at", "text", (col) => col.notNull())
        .addPrimaryKeyConstraint("rate_limit_keys_pk", ["rule", "key"])
        .execute();
      await db.schema
        .createTable("rate_events")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("rule", "text", (col) => col.notNull())
        .addColumn("key", "text", (col) => col.notNull())
        .addColumn("at", "text", (col) => col.notNull())
        .execute();
      await db.schema.createIndex("rate_events_rule_key_at").on("rate_events").columns(["rule", "key", "at"]).execute();

      // Place search results handed out, so addPlace(locationId) on any instance can save one.
      await db.schema
        .createTable("search_results")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("location", "text", (col) => col.notNull())
        .addColumn("expires_at", "text", (col) => col.notNull())
        .execute();
      await db.schema.createIndex("search_results_expires").on("search_results").column("expires_at").execute();

      // The newest message id handed out: message writers take it under a row lock, so ids follow commit order.
      await db.schema
        .createTable("message_order")
        .addColumn("name", "text", (col) => col.primaryKey())
        .addColumn("last_id", "text", (col) => col.notNull())
        .execute();
      await sql`INSERT INTO message_order (name, last_id) SELECT 'messages', coalesce(max(id), '') FROM messages`.execute(db);
    },
  },
  "0010_engine_work": {
    async up(db: Kysely<unknown>) {
      // The engine's tick is shared by leased shards of users (decision 010); every shard is a row from the start.
      await db.schema
        .createTable("engine_shards")
        .addColumn("shard", "integer", (col) => col.primaryKey())
        .addColumn("owner", "text")
        .addColumn("lease_until", "text")
        // Ticks are numbered from the epoch in intervals: too big for 32 bits when the interval is short.
        .addColumn("done_tick", "bigint", (col) => col.notNull())
        .execute();
      await (db as Kysely<{ engine_shards: { shard: number; done_tick: number } }>)
        .insertInto("engine_shards")
        .values(Array.from({ length: ENGINE_SHARDS_0010 }, (_, shard) => ({ shard, done_tick: -1 })))
        .execute();
      // Who ran the engine lately: their number sets each one's share of a tick.
      await db.schema
        .createTable("engine_instances")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("seen_at", "text", (col) => col.notNull())
        .execute();
    },
  },
  "0011_request_limits": {
    async up(db: Kysely<unknown>) {
      // Requests per client address and minute, summed over the instances (decision 014): each adds its own about once a second.
      await db.schema
        .createTable("request_counts")
        .addColumn("rule", "text", (col) => col.notNull())
        .addColumn("key", "text", (col) => col.notNull())
        .addColumn("period", "integer", (col) => col.notNull())
        .addColumn("hits", "integer", (col) => col.notNull())
        .addPrimaryKeyConstraint("request_counts_pk", ["rule", "key", "period"])
        .execute();
      await db.schema.createIndex("request_counts_period").on("request_counts").column("period").execute();
    },
  },
  "0012_message_content": {
    async up(db: Kysely<unknown>) {
      // What a message says, as versioned JSON, formatted when read in the reader's language and units.
      // Older messages keep only their stored text (content null).
      await db.schema.alterTable("messages").addColumn("content", "text").execute();
    },
  },
  "0013_air_quality_cache": {
    async up(db: Kysely<unknown>) {
      // Air quality cached like forecasts (forecast_cache): per rounded coordinate, for restarts.
      await db.schema
        .createTable("air_quality_cache")
        .addColumn("coordinate_key", "text", (col) => col.primaryKey())
        .addColumn("fetched_at", "text", (col) => col.notNull())
        .addColumn("payload", "text", (col) => col.notNull())
        .execute();
    },
  },
  "0014_alert_rule_marks": {
    async up(db: Kysely<unknown>) {
      // When the engine first read a rule: what a new rule finds ahead is told once, in one summary with the
      // other rules new in that pass. Rules made before are not new.
      await db.schema.alterTable("alert_rules").addColumn("watched_since", "text").execute();
      await sql`UPDATE alert_rules SET watched_since = created_at`.execute(db);
      // Which starter rule it is, while it keeps the starter's name: named in the reader's language.
      await db.schema.alterTable("alert_rules").addColumn("starter_key", "text").execute();
    },
  },
  "0015_warning_states": {
    async up(db: Kysely<unknown>) {
      // What each user was told of each official warning (issued, updated, cleared), written with those messages.
      await db.schema
        .createTable("warning_states")
        .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
        .addColumn("warning_id", "text", (col) => col.notNull())
        .addColumn("message_id", "text", (col) => col.notNull())
        .addColumn("issued_id", "text", (col) => col.notNull())
        .addColumn("sent", "text")
        .addColumn("place_ids", "text", (col) => col.notNull())
        .addColumn("content", "text", (col) => col.notNull())
        .addColumn("told_at", "text", (col) => col.notNull())
        .addColumn("cleared_at", "text")
        .addPrimaryKeyConstraint("warning_states_pk", ["user_id", "warning_id"])
        .execute();
      await db.schema.createIndex("warning_states_cleared").on("warning_states").column("cleared_at").execute();
    },
  },
  "0016_session_details": {
    async up(db: Kysely<unknown>) {
      // The browser or client a session was opened from, as its User-Agent said (the sessions list names it).
      await db.schema.alterTable("sessions").addColumn("user_agent", "text").execute();
      // When each session was last used, apart from `sessions`: every signed-in answer reads that table, and a
      // write to it would drop every cached answer; only the sessions list reads this one.
      await db.schema
        .createTable("session_activity")
        .addColumn("session_id", "text", (col) => col.primaryKey().references("sessions.id").onDelete("cascade"))
        .addColumn("last_seen_at", "text", (col) => col.notNull())
        .execute();
    },
  },
  "0017_mail": {
    async up(db: Kysely<unknown>) {
      // Mail waiting to go out, claimed by one instance at a time (a lease, as the engine's shards are): a message is
      // queued in the transaction that makes it due, and its row says whether it was sent. What it says is sealed.
      await db.schema
        .createTable("mail_outbox")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("dedupe_key", "text", (col) => col.notNull().unique())
        // Whose mail it is: deleting the account takes its mail with it, sent or not.
        .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
        .addColumn("kind", "text", (col) => col.notNull())
        .addColumn("payload", "text", (col) => col.notNull())
        .addColumn("state", "text", (col) => col.notNull())
        .addColumn("created_at", "text", (col) => col.notNull())
        .addColumn("expires_at", "text", (col) => col.notNull())
        .addColumn("next_attempt_at", "text", (col) => col.notNull())
        .addColumn("attempts", "integer", (col) => col.notNull())
        .addColumn("lease_owner", "text")
        .addColumn("lease_until", "text")
        .addColumn("sent_at", "text")
        .addColumn("last_error", "text")
        .execute();
      await db.schema.createIndex("mail_outbox_due").on("mail_outbox").columns(["state", "next_attempt_at"]).execute();
      await db.schema.createIndex("mail_outbox_user").on("mail_outbox").column("user_id").execute();

      // Single-use links sent by mail (a password reset, an email change): only the token's SHA-256 is kept.
      await db.schema
        .createTable("account_tokens")
        .addColumn("token_hash", "text", (col) => col.primaryKey())
        .addColumn("purpose", "text", (col) => col.notNull())
        .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
        // The new address an email change confirms; null for a password reset.
        .addColumn("email", "text")
        .addColumn("created_at", "text", (col) => col.notNull())
        .addColumn("expires_at", "text", (col) => col.notNull())
        .addColumn("used_at", "text")
        .execute();
      await db.schema.createIndex("account_tokens_user").on("account_tokens").columns(["user_id", "purpose"]).execute();

      // How a briefing reaches its owner besides the inbox: comma-separated channels; push alone, as before.
      await db.schema
        .alterTable("briefings")
        .addColumn("delivery", "text", (col) => col.notNull().defaultTo("PUSH"))
        .execute();
    },
  },
  "0018_change_driven_engine": {
    async up(db: Kysely<unknown>) {
      const { real } = columnTypes(db);
      // When the engine must next look at a rule (decision 026): a boundary of its own, or at once (this value) when
      // it is new, edited, or its place's weather changed. Every rule there is now is looked at once, as before.
      await db.schema
        .alterTable("alert_rules")
        .addColumn("next_wake_at", "text", (col) => col.defaultTo("1970-01-01T00:00:00.000Z"))
        .execute();
      await sql`UPDATE alert_rules SET next_wake_at = '1970-01-01T00:00:00.000Z'`.execute(db);
      await db.schema.createIndex("alert_rules_wake").on("alert_rules").column("next_wake_at").execute();
      // The rules that name a place, found when that place's weather changes.
      await db.schema.createIndex("alert_rules_place").on("alert_rules").column("place_id").execute();
      // The places at a rounded coordinate, found by a range of latitude and longitude.
      await db.schema.createIndex("places_coordinate").on("places").columns(["latitude", "longitude"]).execute();
      // The weather the rules watch, per rounded coordinate and kind: what it was when last read (a hash) and when to
      // read it again. `shard_key` (hex) spreads the rows over the engine's shards as user ids do.
      await db.schema
        .createTable("watched_feeds")
        .addColumn("coordinate_key", "text", (col) => col.notNull())
        .addColumn("feed", "text", (col) => col.notNull())
        .addColumn("latitude", real, (col) => col.notNull())
        .addColumn("longitude", real, (col) => col.notNull())
        .addColumn("shard_key", "text", (col) => col.notNull())
        .addColumn("content_hash", "text", (col) => col.notNull())
        .addColumn("next_refresh_at", "text", (col) => col.notNull())
        .addPrimaryKeyConstraint("watched_feeds_pk", ["coordinate_key", "feed"])
        .execute();
      await db.schema.createIndex("watched_feeds_due").on("watched_feeds").column("next_refresh_at").execute();
      // Messages past the retention window are removed oldest first.
      await db.schema.createIndex("messages_created").on("messages").column("created_at").execute();
    },
  },
  "0019_aqi_scale_per_rule": {
    async up(db: Kysely<unknown>) {
      // An AQI rule's points keep the scale they were set on (decision 031): until now they were read on the owner's
      // scale of the day, which their units decide (°F: the US index, else the European one; frozen here as it is in
      // app/shared/air-quality.ts now). Existing rules keep meaning what they mean today.
      await db.schema.alterTable("alert_rules").addColumn("aqi_scale", "text").execute();
      await sql`
        UPDATE alert_rules SET aqi_scale = COALESCE(
          (
            SELECT CASE WHEN settings.temperature_unit = 'FAHRENHEIT' THEN 'US' ELSE 'EUROPEAN' END
            FROM settings WHERE settings.user_id = alert_rules.user_id
          ),
          'EUROPEAN'
        )
        WHERE metric = 'AQI'
      `.execute(db);
    },
  },
  "0020_change_driven_warnings": {
    async up(db: Kysely<unknown>) {
      // Official warnings follow their feeds' changes, as the rules do (decision 026). Per warnings area (an NWS grid
      // point, a MeteoAlarm country): a hash of what the service last answered, and when to read it again.
      await db.schema
        .createTable("warning_areas")
        .addColumn("area_key", "text", (col) => col.primaryKey())
        .addColumn("shard_key", "text", (col) => col.notNull())
        .addColumn("content_hash", "text", (col) => col.notNull())
        .addColumn("fetched_at", "text")
        .addColumn("next_refresh_at", "text", (col) => col.notNull())
        .execute();
      await db.schema.createIndex("warning_areas_due").on("warning_areas").column("next_refresh_at").execute();
      // Per covered place: its area and a hash of the answer its owner's warnings were last decided on.
      await db.schema
        .createTable("warning_places")
        .addColumn("place_id", "text", (col) => col.primaryKey().references("places.id").onDelete("cascade"))
        .addColumn("user_id", "text", (col) => col.notNull())
        .addColumn("area_key", "text", (col) => col.notNull())
        .addColumn("content_hash", "text", (col) => col.notNull())
        .execute();
      await db.schema.createIndex("warning_places_area").on("warning_places").column("area_key").execute();
      // The users whose warnings must be decided again, and since when (the epoch: at once).
      await db.schema
        .createTable("warning_wakes")
        .addColumn("user_id", "text", (col) => col.primaryKey().references("users.id").onDelete("cascade"))
        .addColumn("wake_at", "text", (col) => col.notNull())
        .execute();
      await db.schema.createIndex("warning_wakes_due").on("warning_wakes").column("wake_at").execute();
      // Everyone with a place is decided once, as every pass did before.
      await sql`INSERT INTO warning_wakes (user_id, wake_at) SELECT DISTINCT user_id, '1970-01-01T00:00:00.000Z' FROM places`.execute(db);
    },
  },
  "0021_engine_writes": {
    async up(db: Kysely<unknown>) {
      // Most rules sleep (no wake-up time, decision 026): the wake index keeps only those with one, so a rule put to
      // sleep after its evaluation adds no entry to it (an update of an indexed column writes every index it is in).
      await sql`DROP INDEX alert_rules_wake`.execute(db);
      await sql`CREATE INDEX alert_rules_wake ON alert_rules (next_wake_at) WHERE next_wake_at IS NOT NULL`.execute(db);
      // A forecast is stored again each time it is refreshed (every watched place every 15 minutes): PostgreSQL
      // compresses such big payloads, with pglz unless told otherwise, and that was a quarter of the database's time
      // at a million rules. lz4 costs a fraction of it; a server built without it keeps pglz.
      if (db.getExecutor().adapter instanceof PostgresAdapter) {
        const { rows } = await sql<{ lz4: boolean }>`
          SELECT 'lz4' = ANY (enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`.execute(db);
        if (rows[0]?.lz4) {
          for (const table of ["forecast_cache", "air_quality_cache"]) {
            await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN payload SET COMPRESSION lz4`.execute(db);
          }
        }
      }
    },
  },
  "0022_held_push_due": {
    async up(db: Kysely<unknown>) {
      // A tick read every held push of its shards to find whose quiet hours were over: a sequential scan that grew
      // all night. Each now keeps when it is due, indexed. Those held before are due at once ('' sorts first): the
      // next tick holds them on to their quiet hours' end if still quiet.
      await db.schema
        .alterTable("held_pushes")
        .addColumn("due_at", "text", (col) => col.notNull().defaultTo(""))
        .execute();
      await db.schema.createIndex("held_pushes_due").on("held_pushes").column("due_at").execute();
      await db.schema.createIndex("held_pushes_user").on("held_pushes").column("user_id").execute();
    },
  },
};
