import { describe, expect, it } from "vitest";
import type { Scenario } from "../fakes/open-meteo";
import { DeleteAlertRuleDocument as DELETE_RULE, RemovePlaceDocument as REMOVE_PLACE } from "~/lib/graphql/later-documents.generated";
import { codes, testApis } from "../support/api-server";
import {
  TestAlertAddOfficeAgainDocument as ADD_OFFICE_AGAIN,
  TestAlertAddOfficeDocument as ADD_OFFICE,
  TestAlertInboxDocument as INBOX,
  TestAlertPlaceIdsDocument as PLACE_IDS,
  TestAlertPreviewDocument as PREVIEW,
  TestAlertPreviewWindowsDocument as PREVIEW_WINDOWS,
  TestAlertResumeDocument as RESUME,
  TestAlertRuleIdsDocument as RULE_IDS,
  TestAlertRuleNamesDocument as RULE_NAMES,
  TestAlertRuleStartersDocument as RULE_STARTERS,
  TestAlertSaveRuleAgainDocument as SAVE_AGAIN,
  TestAlertSaveRuleDocument as SAVE,
  TestAlertSearchLondonDocument as SEARCH_LONDON,
  TestAlertSearchDocument as SEARCH,
  TestAlertAddPlaceDocument as ADD_PLACE,
  TestAlertSettingsDocument as UPDATE_SETTINGS,
  TestAlertSnoozeDocument as SNOOZE,
  TestAlertSnoozeIdDocument as SNOOZE_ID,
  TestAlertSnoozeStateDocument as SNOOZE_STATE,
  type AlertRuleInput,
} from "../support/documents.generated";

const api = testApis();

const DAY1 = Date.parse("2026-06-01T00:00:00Z") / 1000;
const H = 3600;

/** Calm everywhere, gusts of 70–82 km/h on day 1 12:00–15:00 and day 2 12:00–14:00 (UTC). */
const twoGales: Scenario = (_lat, _lon, time) => {
  const episode = (time >= DAY1 + 12 * H && time < DAY1 + 15 * H) || (time >= DAY1 + 36 * H && time < DAY1 + 38 * H);
  const peak = time === DAY1 + 13 * H ? 82 : 70;
  return { wind_gusts_10m: episode ? peak : 20, weather_code: 3 };
};

// Typed documents (alerts.graphql; the app's RemovePlace and DeleteAlertRule): answers read with their generated result types.

async function setUp(cooldownHours: number, rule: Partial<AlertRuleInput> = {}) {
  let now = DAY1 * 1000;
  const t = await api({ now: () => new Date(now) });
  t.fake.setScenario(twoGales);
  const token = await t.signUp();
  await t.gql(
    UPDATE_SETTINGS,
    {
      input: { timeZone: "UTC", windSpeedUnit: "KMH", hour12: false, language: "EN_US" },
    },
    { token },
  );
  const found = await t.gql(SEARCH_LONDON, {}, { token });
  await t.gql(ADD_OFFICE, { id: found.data!.searchLocations[0]!.id }, { token });
  const saved = await t.gql(
    SAVE,
    {
      input: {
        name: "Gale",
        metric: "WIND_GUSTS",
        comparator: "AT_LEAST",
        threshold: 60,
        lookaheadHours: 6,
        cooldownHours,
        notifyAllClear: true,
        urgent: true,
        ...rule,
      },
    },
    { token },
  );
  expect(saved.errors).toBeUndefined();
  /** Replays the clock hour by hour, one engine pass each. */
  async function replay(hours: number) {
    for (let i = 0; i < hours; i++) {
      now += H * 1000;
      await t.api.services.alerts.evaluateAll();
    }
  }
  const clock = { now: () => new Date(now), set: (epochSeconds: number) => (now = epochSeconds * 1000) };
  return { t, token, replay, clock, ruleId: saved.data!.saveAlertRule.id };
}

// The user's clock is UTC and the Office is in London: windows are given in London time, labelled with its offset.
describe("alert rules", () => {
  it("fire once per episode over a replayed 3-day forecast, naming window and peak, and re-arm after the cooldown", async () => {
    const { t, token, replay } = await setUp(3);
    await replay(72);
    const messages = (await t.gql(INBOX, {}, { token })).data!.messages.edges.reverse();
    expect(messages.map((m) => m.kind)).toEqual(["ALERT", "ALL_CLEAR", "ALERT", "ALL_CLEAR"]);
    expect(messages[0]).toMatchObject({
      title: "Gale: Office",
      body: "Gusts 82 km/h in Office from Mon 13:00 to 16:00 GMT+1, peak 14:00.",
      urgent: true,
      alertRule: { name: "Gale" },
      match: {
        from: "2026-06-01T12:00:00.000Z",
        to: "2026-06-01T15:00:00.000Z",
        peakAt: "2026-06-01T13:00:00.000Z",
        peakValue: 82,
        place: { label: "Office" },
      },
    });
    expect(messages[1]).toMatchObject({ kind: "ALL_CLEAR", title: "All clear: Office" });
    expect(messages[2]!.body).toBe("Gusts 70 km/h in Office from Tue 13:00 to 15:00 GMT+1, peak 13:00."); // sent the same morning
  });

  it("wait out the cooldown before alerting again: a second episode inside it is announced when it ends, if still on", async () => {
    const { t, token, replay } = await setUp(30);
    await replay(72);
    const messages = (await t.gql(INBOX, {}, { token })).data!.messages.edges.reverse();
    expect(messages.map((m) => m.kind)).toEqual(["ALERT", "ALL_CLEAR", "ALERT", "ALL_CLEAR"]);
    // Alerted on day 1 at 07:00, so not again before day 2 at 13:00: the second gale is told then, while it lasts.
    expect(messages[2]!.body).toBe("Gusts 70 km/h in Office from Tue 14:00 to 15:00 GMT+1, peak 14:00.");
  });

  it("tell the separate windows of one forecast in one message, once over repeated passes and refreshes, each with its all-clear", async () => {
    const { t, token, clock } = await setUp(6, { lookaheadHours: 24 });
    // Gusts at +2 to +3 and +7 to +8 from midnight: two episodes, seen together in the first pass.
    const windows =
      (second: [number, number]): Scenario =>
      (_lat, _lon, time) => {
        const hour = (time - DAY1) / H;
        return { wind_gusts_10m: (hour >= 2 && hour < 4) || (hour >= second[0] && hour < second[1]) ? 75 : 20, weather_code: 3 };
      };
    t.fake.setScenario(windows([7, 9]));
    for (let minute = 0; minute < 12 * 60; minute += 20) {
      clock.set(DAY1 + minute * 60);
      // A refresh now and then moves the second window by an hour and back: still the same episode.
      t.fake.setScenario(windows(minute % 120 < 60 ? [7, 9] : [8, 9]));
      await t.api.services.alerts.evaluateAll();
      await t.api.services.alerts.evaluateAll();
    }
    const messages = (await t.gql(INBOX, {}, { token })).data!.messages.edges.reverse();
    // Both windows, seen in the same pass, in one message: each still its own episode, with its all-clear.
    expect(messages.map((m) => [m.kind, m.body])).toEqual([
      ["ALERT", "Gusts 75 km/h in Office: Mon 03:00–05:00, 08:00–10:00 GMT+1; peak Mon 03:00."],
      ["ALL_CLEAR", expect.any(String)],
      ["ALL_CLEAR", expect.any(String)],
    ]);
  });

  it("tell a rule on every place that crosses at several at once in one message naming them, then only what is new", async () => {
    const { t, token, clock } = await setUp(6, { lookaheadHours: 48 });
    const reykjavik = (await t.gql(SEARCH, { query: "reykjavik" }, { token })).data!.searchLocations[0]!.id;
    expect((await t.gql(ADD_PLACE, { id: reykjavik }, { token })).errors).toBeUndefined();
    // Both gales of the scenario at both places: four windows, one message.
    clock.set(DAY1 + 1 * H);
    await t.api.services.alerts.evaluateAll();
    await t.api.services.alerts.evaluateAll();
    const alerts = async () => (await t.gql(INBOX, {}, { token })).data!.messages.edges.filter((m) => m.kind === "ALERT");
    expect((await alerts()).map((m) => [m.title, m.body])).toEqual([
      [
        "Gale: Office and Reykjavík",
        "Gusts 82 km/h in Office (Mon 13:00–16:00, Tue 13:00–15:00 GMT+1) and Reykjavík (Mon 12:00–15:00, Tue 12:00–14:00); peak Mon 14:00 in Office.",
      ],
    ]);
    // Later passes and refreshes tell nothing again; a new gale is news, in a message of its own.
    clock.set(DAY1 + 5 * H);
    await t.api.services.alerts.evaluateAll();
    expect(await alerts()).toHaveLength(1);
    t.fake.setScenario((lat, lon, time) =>
      time === DAY1 + 20 * H && lat > 60 ? { wind_gusts_10m: 90, weather_code: 3 } : twoGales(lat, lon, time),
    );
    clock.set(DAY1 + 7 * H);
    await t.api.services.alerts.evaluateAll();
    expect((await alerts()).map((m) => m.body)[0]).toBe("Gusts 90 km/h in Reykjavík from Mon 20:00 to 21:00, peak 20:00.");
  });

  it("tell what rules made together find ahead in one summary on their first pass, then only what is new", async () => {
    const { t, token, replay } = await setUp(6, { lookaheadHours: 24 });
    const calm = await t.gql(
      SAVE,
      { input: { name: "Calm", metric: "WIND_GUSTS", comparator: "AT_MOST", threshold: 30, lookaheadHours: 24, cooldownHours: 6 } },
      { token },
    );
    expect(calm.errors).toBeUndefined();
    await replay(1);
    const messages = async () => (await t.gql(INBOX, {}, { token })).data!.messages.edges;
    const [summary, ...others] = await messages();
    expect(others).toEqual([]);
    expect(summary).toMatchObject({ kind: "ALERT", title: "Your new rules: 2 things ahead", urgent: true });
    expect(summary!.body.split("\n")).toEqual([
      "Gusts 82 km/h in Office from Mon 13:00 to 16:00 GMT+1, peak 14:00.",
      "Gusts 20 km/h in Office: Mon 02:00–13:00, 16:00–Tue 13:00 GMT+1; peak Mon 02:00.",
    ]);
    // From then on, each rule tells what is new on its own: the next day's gale, the calm after it.
    await replay(30);
    const alerts = (await messages()).filter((m) => m.kind === "ALERT");
    expect(alerts.map((m) => m.title)).toEqual(["Calm: Office", "Gale: Office", "Your new rules: 2 things ahead"]);
  });

  it("name a starter rule in the reader's language, in the rule list and its alerts, until it is renamed", async () => {
    const { t, token, replay } = await setUp(6, { name: "Strong gusts", starter: "GUSTS", lookaheadHours: 24 });
    const rules = async () => (await t.gql(RULE_STARTERS, {}, { token })).data!.alertRules;
    expect(await rules()).toEqual([{ id: expect.any(String), name: "Strong gusts", starter: "GUSTS" }]);
    await t.gql(UPDATE_SETTINGS, { input: { language: "DE_DE" } }, { token });
    const [rule] = await rules();
    expect(rule).toMatchObject({ name: "Starke Böen", starter: "GUSTS" });
    await replay(1);
    const [alert] = (await t.gql(INBOX, {}, { token })).data!.messages.edges;
    expect(alert!.title).toBe("Starke Böen: Office");

    // Saved again under its (German) name it stays the starter; renamed, it is the user's own name in every language.
    const input = { name: "Starke Böen", starter: "GUSTS" as const, metric: "WIND_GUSTS" as const, threshold: 60, lookaheadHours: 24 };
    expect((await t.gql(SAVE_AGAIN, { id: rule!.id, input }, { token })).data!.saveAlertRule).toEqual({
      name: "Starke Böen",
      starter: "GUSTS",
    });
    const renamed = await t.gql(SAVE_AGAIN, { id: rule!.id, input: { ...input, name: "Böen am Büro" } }, { token });
    expect(renamed.data!.saveAlertRule).toEqual({ name: "Böen am Büro", starter: null });
    await t.gql(UPDATE_SETTINGS, { input: { language: "EN_US" } }, { token });
    expect((await rules())[0]!.name).toBe("Böen am Büro");
    // A starter named something else from the start is the user's own name.
    const odd = await t.gql(SAVE, { input: { name: "Windy", starter: "GUSTS", metric: "WIND_GUSTS", threshold: 60 } }, { token });
    expect(odd.errors).toBeUndefined();
    expect((await rules()).map((r) => [r.name, r.starter])).toContainEqual(["Windy", null]);
  });

  it("do not send an alert again for a place that was removed and added back", async () => {
    const { t, token, clock } = await setUp(6, { lookaheadHours: 24 });
    clock.set(DAY1 + 7 * H);
    await t.api.services.alerts.evaluateAll();
    const alerts = async () => (await t.gql(INBOX, {}, { token })).data!.messages.edges.filter((m) => m.kind === "ALERT").length;
    expect(await alerts()).toBe(1);

    const place = (await t.gql(PLACE_IDS, {}, { token })).data!.places[0]!.id;
    expect((await t.gql(REMOVE_PLACE, { id: place }, { token })).errors).toBeUndefined();
    clock.set(DAY1 + 8 * H);
    await t.api.services.alerts.evaluateAll();
    const found = await t.gql(SEARCH_LONDON, {}, { token });
    const again = await t.gql(ADD_OFFICE_AGAIN, { id: found.data!.searchLocations[0]!.id }, { token });
    expect(again.data!.addPlace.id).not.toBe(place);
    clock.set(DAY1 + 9 * H);
    await t.api.services.alerts.evaluateAll();
    // The same gale at the same spot was already told: nothing new in the inbox.
    expect(await alerts()).toBe(1);
    // The next day's gale is news, and is told for the place as it is now.
    clock.set(DAY1 + 30 * H);
    await t.api.services.alerts.evaluateAll();
    expect(await alerts()).toBe(2);
    expect((await t.gql(INBOX, {}, { token })).data!.messages.edges[0]).toMatchObject({ kind: "ALERT", title: "Gale: Office again" });
  });

  it("do not call all clear for a window long over when its place comes back", async () => {
    const { t, token, clock } = await setUp(3, { lookaheadHours: 24 });
    clock.set(DAY1 + 7 * H);
    await t.api.services.alerts.evaluateAll();
    const place = (await t.gql(PLACE_IDS, {}, { token })).data!.places[0]!.id;
    await t.gql(REMOVE_PLACE, { id: place }, { token });
    // Back in the evening, hours after the gale (12:00 to 15:00) blew over.
    clock.set(DAY1 + 20 * H);
    const found = await t.gql(SEARCH_LONDON, {}, { token });
    await t.gql(ADD_OFFICE, { id: found.data!.searchLocations[0]!.id }, { token });
    await t.api.services.alerts.evaluateAll();
    const kinds = (await t.gql(INBOX, {}, { token })).data!.messages.edges.map((m) => m.kind);
    // Day 1's alert, and day 2's gale now in view; no stale all-clear in between.
    expect(kinds).toEqual(["ALERT", "ALERT"]);
  });

  it("tell a window once when two rules watch the same thing, or a rule is made again the same way, and the urgent one tells it", async () => {
    const { t, token, clock, ruleId } = await setUp(6, { lookaheadHours: 24, urgent: false });
    const copy = await t.gql(
      SAVE,
      {
        input: {
          name: "Gale (urgent)",
          metric: "WIND_GUSTS",
          comparator: "AT_LEAST",
          threshold: 60,
          lookaheadHours: 24,
          cooldownHours: 6,
          urgent: true,
        },
      },
      { token },
    );
    expect(copy.errors).toBeUndefined();
    clock.set(DAY1 + 7 * H);
    await t.api.services.alerts.evaluateAll();
    const alerts = async () => (await t.gql(INBOX, {}, { token })).data!.messages.edges.filter((m) => m.kind === "ALERT");
    expect(await alerts()).toMatchObject([{ urgent: true, alertRule: { name: "Gale (urgent)" } }]);

    // Deleted and made again as it was: the gale it told is not news.
    await t.gql(DELETE_RULE, { id: ruleId }, { token });
    await t.gql(DELETE_RULE, { id: copy.data!.saveAlertRule.id }, { token });
    await t.gql(
      SAVE,
      { input: { name: "Gale again", metric: "WIND_GUSTS", comparator: "AT_LEAST", threshold: 60, lookaheadHours: 24, cooldownHours: 6 } },
      { token },
    );
    clock.set(DAY1 + 8 * H);
    await t.api.services.alerts.evaluateAll();
    expect(await alerts()).toHaveLength(1);
    // Another threshold is another rule: it tells what it sees.
    await t.gql(
      SAVE,
      { input: { name: "Strong gale", metric: "WIND_GUSTS", comparator: "AT_LEAST", threshold: 80, lookaheadHours: 24, cooldownHours: 6 } },
      { token },
    );
    await t.api.services.alerts.evaluateAll();
    expect((await alerts()).map((m) => m.alertRule?.name ?? null)).toEqual(["Strong gale", null]);
  });

  it("a repeated pass, or two processes, write an alert once", async () => {
    const { t, token, clock } = await setUp(3);
    const second = await api({ now: clock.now, dataDir: t.dataDir, databaseUrl: t.databaseUrl, fake: t.fake });
    // 07:00 on day 1: the 6-hour look-ahead reaches the first gale.
    clock.set(DAY1 + 7 * H);
    await Promise.all([t.api.services.alerts.evaluateAll(), second.api.services.alerts.evaluateAll(), t.api.services.alerts.evaluateAll()]);
    expect((await t.gql(INBOX, {}, { token })).data!.messages.edges).toHaveLength(1);
  });

  it("previews when a rule would fire within its look-ahead, saving nothing", async () => {
    const { t, token } = await setUp(3);
    const preview = await t.gql(
      PREVIEW,
      {
        input: { name: "Try", metric: "WIND_GUSTS", threshold: 75 },
      },
      { token },
    );
    expect(preview.data!.previewAlertRule).toEqual([
      { from: "2026-06-01T13:00:00.000Z", to: "2026-06-01T14:00:00.000Z", peakValue: 82, place: { label: "Office" } },
    ]);
    expect((await t.gql(RULE_NAMES, {}, { token })).data!.alertRules).toEqual([{ name: "Gale" }]);
  });

  it("previews only as far ahead as the rule looks", async () => {
    const { t, token } = await setUp(3);
    const preview = async (lookaheadHours: number) =>
      (await t.gql(PREVIEW_WINDOWS, { input: { name: "Try", metric: "WIND_GUSTS", threshold: 60, lookaheadHours } }, { token })).data!
        .previewAlertRule;
    // Midnight on day 1: the first gale starts in 12 hours, the second in 36.
    expect(await preview(6)).toEqual([]);
    expect(await preview(24)).toEqual([{ from: "2026-06-01T12:00:00.000Z", to: "2026-06-01T15:00:00.000Z" }]);
    expect(await preview(48)).toEqual([
      { from: "2026-06-01T12:00:00.000Z", to: "2026-06-01T15:00:00.000Z" },
      { from: "2026-06-02T12:00:00.000Z", to: "2026-06-02T14:00:00.000Z" },
    ]);
  });

  it("snoozed rules stay silent, and a resumed one speaks again", async () => {
    const { t, token, replay, ruleId } = await setUp(3);
    const snoozed = await t.gql(
      SNOOZE_STATE,
      {
        id: ruleId,
        until: "2026-06-01T20:00:00Z",
      },
      { token },
    );
    expect(snoozed.data!.snoozeAlertRule.state).toBe("SNOOZED");
    await replay(20);
    expect((await t.gql(INBOX, {}, { token })).data!.messages.edges).toEqual([]);

    expect((await t.gql(SNOOZE, { id: ruleId, until: "2026-06-30T00:00:00Z" }, { token })).data!.snoozeAlertRule).toEqual({
      state: "SNOOZED",
      snoozedUntil: "2026-06-30T00:00:00.000Z",
    });
    expect(codes(await t.gql(RESUME, { id: ruleId }, { token: await t.signUp() }))).toEqual(["NOT_FOUND"]);
    expect((await t.gql(RESUME, { id: ruleId }, { token })).data!.resumeAlertRule).toEqual({ state: "ARMED", snoozedUntil: null });
    await replay(28);
    const kinds = (await t.gql(INBOX, {}, { token })).data!.messages.edges.map((m) => m.kind);
    expect(kinds).toContain("ALERT");
  });

  it("tell a crossing still ahead when a snooze ends at the next pass, once, even inside a long cooldown", async () => {
    // Cooldown 48 h: without the snooze's end, day 2's gale (12:00–14:00) would wait until day 3 and never be told.
    const { t, token, replay, ruleId, clock } = await setUp(48, { lookaheadHours: 24 });
    const alerts = async () =>
      (await t.gql(INBOX, {}, { token })).data!.messages.edges.filter((m) => m.kind === "ALERT").map((m) => m.match!.from);
    await replay(1);
    expect(await alerts()).toEqual(["2026-06-01T12:00:00.000Z"]);
    await t.gql(SNOOZE_STATE, { id: ruleId, until: "2026-06-02T02:00:00Z" }, { token });
    await replay(24); // to day 2, 01:00: still snoozed
    expect(await alerts()).toHaveLength(1);
    await replay(1); // 02:00: the snooze is over
    expect(await alerts()).toEqual(["2026-06-02T12:00:00.000Z", "2026-06-01T12:00:00.000Z"]);
    expect((await t.gql(SNOOZE_STATE, { id: ruleId, until: "2026-06-02T05:00:00Z" }, { token })).data!.snoozeAlertRule.state).toBe(
      "SNOOZED",
    );
    await replay(12);
    expect(await alerts()).toHaveLength(2);

    // Resumed by hand: the same, from the next pass (a third gale on day 3, 12:00–13:00).
    const third: Scenario = (_lat, _lon, time) => ({ wind_gusts_10m: time === DAY1 + 60 * H ? 75 : 20, weather_code: 3 });
    t.fake.setScenario(third);
    await t.gql(SNOOZE_STATE, { id: ruleId, until: "2026-06-30T00:00:00Z" }, { token });
    await replay(12); // to day 3, 02:00: snoozed, the gale ahead untold
    expect(await alerts()).toHaveLength(2);
    expect((await t.gql(RESUME, { id: ruleId }, { token })).data!.resumeAlertRule).toEqual({ state: "ARMED", snoozedUntil: null });
    await replay(1);
    expect((await alerts())[0]).toBe("2026-06-03T12:00:00.000Z");
    expect(clock.now().toISOString()).toBe("2026-06-03T03:00:00.000Z");
    await replay(3);
    expect(await alerts()).toHaveLength(3);
  });

  it("validate input and keep to the owner", async () => {
    const { t, token, ruleId } = await setUp(3);
    const bad = async (input: Partial<AlertRuleInput>) =>
      codes(await t.gql(SAVE, { input: { name: "X", metric: "WIND_GUSTS", threshold: 60, ...input } }, { token }));
    expect(await bad({ threshold: 900 })).toEqual(["BAD_USER_INPUT"]);
    expect(await bad({ threshold: null })).toEqual(["BAD_USER_INPUT"]);
    expect(await bad({ metric: "CONDITION", conditions: [] })).toEqual(["BAD_USER_INPUT"]);
    expect(await bad({ lookaheadHours: 0 })).toEqual(["BAD_USER_INPUT"]);
    expect(await bad({ activeFrom: "07:00" })).toEqual(["BAD_USER_INPUT"]);
    expect(await bad({ activeDays: [] })).toEqual(["BAD_USER_INPUT"]);
    expect(await bad({ placeId: "not-mine" })).toEqual(["NOT_FOUND"]);

    const other = await t.signUp();
    expect((await t.gql(RULE_IDS, {}, { token: other })).data!.alertRules).toEqual([]);
    expect(codes(await t.gql(DELETE_RULE, { id: ruleId }, { token: other }))).toEqual(["NOT_FOUND"]);
    expect(codes(await t.gql(SNOOZE_ID, { id: ruleId }, { token: other }))).toEqual(["NOT_FOUND"]);
    expect((await t.gql(RULE_IDS, {}, { token })).data!.alertRules).toHaveLength(1);
  });
});

// Open-Meteo's quarter hours (minutely_15) from the loopback fake: an hour's rain falls in its first three quarters.
describe("rain starting soon", () => {
  /** Showers of 0.4 mm a quarter hour on day 1, 10:00–10:45 and 12:00–12:45 UTC; dry otherwise. */
  const twoShowers: Scenario = (_lat, _lon, time) => ({ precipitation: time === DAY1 + 10 * H || time === DAY1 + 12 * H ? 1.2 : 0 });
  const rainSoon = (cooldownHours: number) =>
    setUp(cooldownHours, { name: "Umbrella", metric: "RAIN_SOON", threshold: 30, notifyAllClear: false, urgent: false });

  /** Every 5 minutes from 09:00 to 13:30, two passes each (as two instances would), refreshing the forecast as it goes stale. */
  async function morning(t: Awaited<ReturnType<typeof rainSoon>>["t"], clock: Awaited<ReturnType<typeof rainSoon>>["clock"]) {
    t.fake.setScenario(twoShowers);
    for (let minute = 9 * 60; minute <= 13.5 * 60; minute += 5) {
      clock.set(DAY1 + minute * 60);
      await t.api.services.alerts.evaluateAll();
      await t.api.services.alerts.evaluateAll();
    }
  }

  it("fires once per shower, within its minutes, and is formatted for the reader as they are now", async () => {
    const { t, token, clock } = await rainSoon(0);
    await t.gql(UPDATE_SETTINGS, { input: { precipitationUnit: "MM" } }, { token });
    await morning(t, clock);
    const messages = (await t.gql(INBOX, {}, { token })).data!.messages.edges.reverse();
    expect(messages.map((m) => [m.kind, m.body])).toEqual([
      ["ALERT", "Rain soon in Office: from Mon 11:00 to 11:45 GMT+1, up to 0.4 mm per quarter hour."],
      ["ALERT", "Rain soon in Office: from Mon 13:00 to 13:45 GMT+1, up to 0.4 mm per quarter hour."],
    ]);
    expect(messages[0]).toMatchObject({
      title: "Umbrella: Office",
      match: { from: "2026-06-01T10:00:00.000Z", to: "2026-06-01T10:45:00.000Z", peakValue: 0.4 },
    });
    await t.gql(UPDATE_SETTINGS, { input: { language: "DE_DE", precipitationUnit: "INCH" } }, { token });
    const german = (await t.gql(INBOX, {}, { token })).data!.messages.edges.reverse();
    expect(german[0]!.body).toBe("Bald Regen in Office: von Mo 11:00 bis 11:45 GMT+1, bis 0,02 in pro Viertelstunde.");
  });

  it("is told no earlier than its minutes ahead, and a second shower waits out the cooldown", async () => {
    const { t, token, clock } = await rainSoon(6);
    t.fake.setScenario(twoShowers);
    clock.set(DAY1 + 9 * H + 25 * 60); // 35 minutes before the first shower
    await t.api.services.alerts.evaluateAll();
    const count = async () => (await t.gql(INBOX, {}, { token })).data!.messages.edges.length;
    expect(await count()).toBe(0);
    clock.set(DAY1 + 9 * H + 31 * 60);
    await t.api.services.alerts.evaluateAll();
    expect(await count()).toBe(1);
    await morning(t, clock);
    expect(await count()).toBe(1);
  });

  it("previews the showers starting within its minutes", async () => {
    const { t, token, clock } = await rainSoon(0);
    t.fake.setScenario(twoShowers);
    clock.set(DAY1 + 9 * H + 40 * 60);
    const input = { name: "Umbrella", metric: "RAIN_SOON" as const, threshold: 30 };
    const preview = await t.gql(PREVIEW, { input }, { token });
    expect(preview.data!.previewAlertRule).toEqual([
      { from: "2026-06-01T10:00:00.000Z", to: "2026-06-01T10:45:00.000Z", peakValue: 0.4, place: { label: "Office" } },
    ]);
    const tooFar = await t.gql(PREVIEW, { input: { ...input, threshold: 180 } }, { token });
    expect(tooFar.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });
});
