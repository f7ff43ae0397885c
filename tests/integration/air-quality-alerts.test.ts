import { describe, expect, it } from "vitest";
import type { Scenario } from "../fakes/open-meteo";
import { testApis } from "../support/api-server";
import {
  TestAqiRuleSaveAgainDocument as SAVE_AGAIN,
  TestAqiRuleScalesDocument as RULES,
  TestAlertAddOfficeDocument as ADD_OFFICE,
  TestAlertInboxDocument as INBOX,
  TestAlertPreviewDocument as PREVIEW,
  TestAlertSaveRuleDocument as SAVE,
  TestAlertSearchLondonDocument as SEARCH_LONDON,
  TestAlertSettingsDocument as UPDATE_SETTINGS,
  type SettingsInput,
} from "../support/documents.generated";

const api = testApis();

const DAY1 = Date.parse("2026-06-01T00:00:00Z") / 1000;
const H = 3600;

/**
 * Smoke on day 1 12:00–15:00 and day 2 12:00–14:00 (UTC): the US index 160–185 (unhealthy), the
 * European one 70–90 (poor); clean air (US 30, European 15) otherwise.
 */
const twoSmokyAfternoons: Scenario = (_lat, _lon, time) => {
  const smoky = (time >= DAY1 + 12 * H && time < DAY1 + 15 * H) || (time >= DAY1 + 36 * H && time < DAY1 + 38 * H);
  const peak = time === DAY1 + 13 * H;
  return smoky ? { us_aqi: peak ? 185 : 160, european_aqi: peak ? 90 : 70 } : { us_aqi: 30, european_aqi: 15 };
};

/** A user with one place (London, "Office") and an AQI rule; `settings` picks the units, and so the scale. */
async function setUp(threshold: number, settings: SettingsInput) {
  let now = DAY1 * 1000;
  const t = await api({ now: () => new Date(now) });
  t.fake.setAirQualityScenario(twoSmokyAfternoons);
  const token = await t.signUp();
  await t.gql(UPDATE_SETTINGS, { input: { timeZone: "UTC", hour12: false, language: "EN_US", ...settings } }, { token });
  const found = await t.gql(SEARCH_LONDON, {}, { token });
  await t.gql(ADD_OFFICE, { id: found.data!.searchLocations[0]!.id }, { token });
  const rule = {
    name: "Smoke",
    metric: "AQI",
    comparator: "AT_LEAST",
    threshold,
    lookaheadHours: 6,
    cooldownHours: 3,
    notifyAllClear: true,
  } as const;
  const saved = await t.gql(SAVE, { input: rule }, { token });
  expect(saved.errors).toBeUndefined();
  const ruleId = saved.data!.saveAlertRule.id;
  /** Replays the clock hour by hour, one engine pass each. */
  async function replay(hours: number) {
    for (let i = 0; i < hours; i++) {
      now += H * 1000;
      await t.api.services.alerts.evaluateAll();
    }
  }
  const inbox = async () => (await t.gql(INBOX, {}, { token })).data!.messages.edges.reverse();
  return { t, token, replay, inbox, rule, ruleId };
}

describe("the AQI alert", () => {
  it("fires once per smoky episode on the US index for a reader of °F, naming window and peak, with an all-clear each", async () => {
    const { t, replay, inbox } = await setUp(150, { temperatureUnit: "FAHRENHEIT" });
    await replay(72);
    const messages = await inbox();
    expect(messages.map((m) => m.kind)).toEqual(["ALERT", "ALL_CLEAR", "ALERT", "ALL_CLEAR"]);
    expect(messages[0]).toMatchObject({
      title: "Smoke: Office",
      body: "US AQI 185 in Office from Mon 13:00 to 16:00 GMT+1, peak 14:00.",
      match: { from: "2026-06-01T12:00:00.000Z", to: "2026-06-01T15:00:00.000Z", peakValue: 185 },
    });
    expect(messages[2]!.body).toBe("US AQI 160 in Office from Tue 13:00 to 15:00 GMT+1, peak 13:00.");
    // Replayed hour by hour, the air was asked for along with the forecasts, never one call per rule or place.
    expect(t.fake.calls.airQuality).toBeLessThanOrEqual(t.fake.calls.forecast);
  });

  it("reads the European index for everyone else: the same smoke is under 150 there, and over 60", async () => {
    const high = await setUp(150, { temperatureUnit: "CELSIUS" });
    await high.replay(40);
    expect(await high.inbox()).toEqual([]);

    const poor = await setUp(60, { temperatureUnit: "CELSIUS" });
    await poor.replay(40);
    const messages = await poor.inbox();
    expect(messages.map((m) => m.kind)).toEqual(["ALERT", "ALL_CLEAR", "ALERT", "ALL_CLEAR"]);
    expect(messages[0]!.body).toBe("European AQI 90 in Office from Mon 13:00 to 16:00 GMT+1, peak 14:00.");
  });

  it("keeps the scale it was made on when the reader's units change: the smoke told of is followed to its all-clear", async () => {
    const { t, token, replay, inbox, rule, ruleId } = await setUp(150, { temperatureUnit: "FAHRENHEIT" });
    await replay(8); // 08:00: the afternoon's smoke (12:00–15:00) in view, US 160–185
    expect((await inbox()).map((m) => m.kind)).toEqual(["ALERT"]);
    await t.gql(UPDATE_SETTINGS, { input: { temperatureUnit: "CELSIUS" } }, { token });
    // 150 is still a US figure: read on the European scale (70–90) it would never be crossed again.
    expect((await t.gql(RULES, {}, { token })).data!.alertRules).toEqual([{ id: ruleId, metric: "AQI", threshold: 150, aqiScale: "US" }]);
    // Through the smoke: its end is told, on the scale the alert named (US 160 tomorrow is still ahead).
    await replay(8);
    const messages = await inbox();
    expect(messages.map((m) => m.kind)).toEqual(["ALERT", "ALL_CLEAR"]);
    expect(messages[0]!.body).toBe("US AQI 185 in Office from Mon 13:00 to 16:00 GMT+1, peak 14:00.");
    // Tomorrow's smoke is found on the US index too, in the preview as by the engine.
    const preview = await t.gql(PREVIEW, { input: { ...rule, aqiScale: "US", lookaheadHours: 24 } }, { token });
    expect(preview.data!.previewAlertRule.map((match) => match.peakValue)).toEqual([160]);
    await replay(24);
    expect((await inbox()).map((m) => m.kind)).toEqual(["ALERT", "ALL_CLEAR", "ALERT", "ALL_CLEAR"]);
  });

  it("keeps its scale when edited without naming one; a new rule, or one new to AQI, takes the reader's of the day", async () => {
    const { t, token, rule, ruleId } = await setUp(150, { temperatureUnit: "FAHRENHEIT" });
    await t.gql(UPDATE_SETTINGS, { input: { temperatureUnit: "CELSIUS" } }, { token });
    const renamed = await t.gql(SAVE_AGAIN, { id: ruleId, input: { ...rule, name: "Smoke at the office" } }, { token });
    expect(renamed.data!.saveAlertRule.aqiScale).toBe("US");
    // Named, the scale is the one given (the editor sends the rule's own).
    const moved = await t.gql(SAVE_AGAIN, { id: ruleId, input: { ...rule, threshold: 60, aqiScale: "EUROPEAN" } }, { token });
    expect(moved.data!.saveAlertRule.aqiScale).toBe("EUROPEAN");
    const fresh = await t.gql(SAVE, { input: rule }, { token });
    const gusts = await t.gql(SAVE, { input: { ...rule, metric: "WIND_GUSTS", threshold: 60 } }, { token });
    const gustsToAqi = await t.gql(SAVE_AGAIN, { id: gusts.data!.saveAlertRule.id, input: rule }, { token });
    expect(gustsToAqi.data!.saveAlertRule.aqiScale).toBe("EUROPEAN");
    const scales = new Map((await t.gql(RULES, {}, { token })).data!.alertRules.map((saved) => [saved.id, saved.aqiScale]));
    expect(scales.get(fresh.data!.saveAlertRule.id)).toBe("EUROPEAN");
    // Another metric has no scale.
    await t.gql(SAVE_AGAIN, { id: ruleId, input: { ...rule, metric: "WIND_GUSTS", threshold: 60 } }, { token });
    expect((await t.gql(RULES, {}, { token })).data!.alertRules.find((saved) => saved.id === ruleId)!.aqiScale).toBeNull();
  });

  it("previews on the reader's scale", async () => {
    const { t, token, rule } = await setUp(150, { temperatureUnit: "FAHRENHEIT" });
    const preview = async () => (await t.gql(PREVIEW, { input: { ...rule, lookaheadHours: 24 } }, { token })).data!.previewAlertRule;
    expect(await preview()).toEqual([
      { from: "2026-06-01T12:00:00.000Z", to: "2026-06-01T15:00:00.000Z", peakValue: 185, place: { label: "Office" } },
    ]);
  });

  it("says so when the air cannot be had for a preview, rather than finding nothing", async () => {
    const { t, token, rule } = await setUp(150, { temperatureUnit: "FAHRENHEIT" });
    t.fake.failAirQualityNext(500);
    const refused = await t.gql(PREVIEW, { input: { ...rule, lookaheadHours: 24 } }, { token });
    expect(refused.errors?.[0]?.extensions?.code).toBe("WEATHER_UNAVAILABLE");
    expect(refused.errors?.[0]?.message).toContain("air-quality service");
  });
});
