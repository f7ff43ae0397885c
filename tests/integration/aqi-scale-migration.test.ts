import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Migrator } from "kysely";
import { describe, expect, it } from "vitest";
import { migrations } from "~/api/db/migrations.server";
import { plainKysely, testDatabaseTarget } from "../support/test-database";

const CREATED = "2026-06-01T06:00:00.000Z";

/** A user whose units are `temperatureUnit`, with the settings row 0001 made. */
const user = (id: string, temperatureUnit: string) => ({
  users: { id, email: `${id}@example.com`, password_hash: "x", created_at: CREATED },
  settings: {
    user_id: id,
    language: "EN_US",
    time_zone: "UTC",
    hour12: 0,
    temperature_unit: temperatureUnit,
    wind_speed_unit: "KMH",
    precipitation_unit: "MM",
    quiet_hours_enabled: 0,
    quiet_from: "22:00",
    quiet_to: "07:00",
    push_enabled: 0,
  },
});

const rule = (id: string, userId: string, metric: string, threshold: number) => ({
  id,
  user_id: userId,
  name: id,
  enabled: 1,
  place_id: null,
  metric,
  comparator: "AT_LEAST",
  threshold,
  lookahead_hours: 24,
  active_days: "MON,TUE,WED,THU,FRI,SAT,SUN",
  urgent: 0,
  notify_all_clear: 0,
  cooldown_hours: 6,
  created_at: CREATED,
});

describe("migration 0019_aqi_scale_per_rule", () => {
  it("gives each AQI rule the scale its owner's units gave it, so a threshold keeps meaning what it meant", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "weatherbot-aqi-scale-"));
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration test opens the database before and after the schema it knows
    const db = plainKysely<any>(await testDatabaseTarget(dir, { empty: true }));
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    try {
      expect((await migrator.migrateTo("0018_change_driven_engine")).error).toBeUndefined();
      for (const owner of [user("us", "FAHRENHEIT"), user("eu", "CELSIUS")]) {
        await db.insertInto("users").values(owner.users).execute();
        await db.insertInto("settings").values(owner.settings).execute();
      }
      await db
        .insertInto("alert_rules")
        .values([rule("us-smoke", "us", "AQI", 150), rule("eu-smoke", "eu", "AQI", 60), rule("eu-gusts", "eu", "WIND_GUSTS", 60)])
        .execute();

      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const rows = await db.selectFrom("alert_rules").select(["id", "aqi_scale"]).orderBy("id").execute();
      expect(rows).toEqual([
        { id: "eu-gusts", aqi_scale: null },
        { id: "eu-smoke", aqi_scale: "EUROPEAN" },
        { id: "us-smoke", aqi_scale: "US" },
      ]);
    } finally {
      await db.destroy();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
