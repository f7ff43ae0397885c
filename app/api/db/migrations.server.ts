import { sql, type Kysely, type Migration } from "kysely";

/**
 * Versioned schema changes, applied in name order on startup. Kysely's migrator records
 * each one, so running them again is a no-op. Never edit a migration that has shipped:
 * add the next one.
 */
export const migrations: Record<string, Migration> = {
  "0001_accounts_places": {
    async up(db: Kysely<unknown>) {
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
        .addColumn("latitude", "real", (col) => col.notNull())
        .addColumn("longitude", "real", (col) => col.notNull())
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
        .addColumn("threshold", "real")
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
  "0006_removed_items": {
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
};
