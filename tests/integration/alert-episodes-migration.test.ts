import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Migrator } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "~/api/index.server";
import { migrations } from "~/api/db/migrations.server";
import { defaultSettings } from "~/api/db/settings-rows";
import type { Database } from "~/api/db/tables";
import { startFakeOpenMeteo, type FakeOpenMeteo, type Scenario } from "../fakes/open-meteo";
import { plainKysely, testDatabaseUrl } from "../support/test-database";

const DAY1 = Date.parse("2026-06-01T00:00:00Z") / 1000;
const H = 3600;
let now = (DAY1 + 7 * H) * 1000;
let weather: FakeOpenMeteo;
let dataDir: string;
/** The PostgreSQL database of the PostgreSQL run; SQLite in dataDir otherwise. */
let databaseUrl: string | undefined;

/** Gusts of 80 km/h on day 1 from 12:00 to 15:00 (UTC), calm otherwise. */
const gale: Scenario = (_lat, _lon, time) => ({ wind_gusts_10m: time >= DAY1 + 12 * H && time < DAY1 + 15 * H ? 80 : 20, weather_code: 3 });

beforeAll(async () => {
  weather = await startFakeOpenMeteo({ now: () => new Date(now) });
  weather.setScenario(gale);
  dataDir = await mkdtemp(path.join(tmpdir(), "weatherbot-migrate-"));
  databaseUrl = await testDatabaseUrl({ empty: true });
});
afterAll(async () => {
  await weather.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** A database as the previous version left it: a rule TRIGGERED for a gale it has already announced. */
async function previousVersionDatabase() {
  const db = plainKysely<Database>(databaseUrl ?? path.join(dataDir, "weatherbot.sqlite"));
  const previous = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < "0006"));
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => previous } }).migrateToLatest();
  expect(error).toBeUndefined();
  const userId = randomUUID();
  const placeId = randomUUID();
  const ruleId = randomUUID();
  const created = "2026-05-01T00:00:00.000Z";
  const episodeStart = new Date((DAY1 + 12 * H) * 1000).toISOString();
  await db.insertInto("users").values({ id: userId, email: "old@example.com", password_hash: "-", created_at: created }).execute();
  await db
    .insertInto("settings")
    .values(defaultSettings(userId, "EN_US", "UTC"))
    .execute();
  await db
    .insertInto("places")
    .values({
      id: placeId,
      user_id: userId,
      label: "Office",
      name: "London",
      admin1: null,
      country_code: "GB",
      latitude: 51.50853,
      longitude: -0.12574,
      time_zone: "Europe/London",
      position: 0,
      created_at: created,
    })
    .execute();
  await db
    .insertInto("alert_rules")
    .values({
      id: ruleId,
      user_id: userId,
      name: "Gale",
      enabled: 1,
      place_id: null,
      metric: "WIND_GUSTS",
      comparator: "AT_LEAST",
      threshold: 60,
      conditions: null,
      lookahead_hours: 6,
      active_days: "MON,TUE,WED,THU,FRI,SAT,SUN",
      active_from: null,
      active_to: null,
      urgent: 0,
      notify_all_clear: 1,
      cooldown_hours: 3,
      snoozed_until: null,
      created_at: created,
    })
    .execute();
  await db
    .insertInto("alert_states")
    .values({
      rule_id: ruleId,
      place_id: placeId,
      state: "TRIGGERED",
      episode_start: episodeStart,
      last_triggered_at: "2026-06-01T06:00:00.000Z",
    })
    .execute();
  await db
    .insertInto("messages")
    .values({
      id: randomUUID(),
      user_id: userId,
      kind: "ALERT",
      title: "Gale: Office",
      body: "Gusts 80 km/h in Office from 12:00 to 15:00, peak 12:00.",
      created_at: "2026-06-01T06:00:00.000Z",
      read_at: null,
      urgent: 0,
      place_id: placeId,
      briefing_id: null,
      dedupe_key: `alert:${ruleId}:${placeId}:${episodeStart}`,
      alert_rule_id: ruleId,
      match_json: JSON.stringify({ from: DAY1 + 12 * H, to: DAY1 + 15 * H, peakAt: DAY1 + 12 * H, peakValue: 80, placeId }),
    })
    .execute();
  await db.destroy();
  return { userId };
}

describe("the alert episodes migration", () => {
  it("keeps an episode announced before the upgrade: no second alert for it, and its all-clear when it is over", async () => {
    const { userId } = await previousVersionDatabase();
    const api = await createApi({
      production: true,
      dataDir,
      databaseUrl,
      openMeteoForecastUrl: weather.url,
      openMeteoAirQualityUrl: weather.url,
      openMeteoGeocodingUrl: weather.url,
      // No place here is covered by a warning service; on loopback either way.
      nwsAlertsUrl: weather.url,
      meteoAlarmUrl: weather.url,
      now: () => new Date(now),
      scheduler: false,
    });
    try {
      const { db } = api.services;
      const kinds = async () =>
        (await db.selectFrom("messages").select("kind").where("user_id", "=", userId).orderBy("created_at").orderBy("id").execute()).map(
          (row) => row.kind,
        );
      expect(await db.selectFrom("alert_episodes").select(["start", "window_from", "window_to", "closed_at"]).execute()).toEqual([
        {
          start: "2026-06-01T12:00:00.000Z",
          window_from: "2026-06-01T12:00:00.000Z",
          window_to: "2026-06-01T15:00:00.000Z",
          closed_at: null,
        },
      ]);
      for (let hour = 7; hour <= 16; hour++) {
        now = (DAY1 + hour * H) * 1000;
        await api.services.alerts.evaluateAll();
      }
      expect(await kinds()).toEqual(["ALERT", "ALL_CLEAR"]);
    } finally {
      await api.close();
    }
  });
});
