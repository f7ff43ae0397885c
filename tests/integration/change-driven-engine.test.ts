import { describe, expect, it } from "vitest";
import type { Scenario } from "../fakes/open-meteo";
import { claimWokenRules, scheduleWakes } from "~/api/bot/rule-wakes.server";
import { testApis } from "../support/api-server";
import {
  TestAlertAddOfficeDocument as ADD_OFFICE,
  TestAlertInboxDocument as INBOX,
  TestAlertResumeDocument as RESUME,
  TestAlertSaveRuleAgainDocument as SAVE_AGAIN,
  TestAlertSaveRuleDocument as SAVE,
  TestAlertSearchLondonDocument as SEARCH_LONDON,
  TestAlertSettingsDocument as UPDATE_SETTINGS,
  TestAlertSnoozeDocument as SNOOZE,
  type AlertRuleInput,
} from "../support/documents.generated";

// Decision 026: a rule is evaluated when its input changed, and only then. Each pass's evaluations are counted.
const api = testApis();

const DAY1 = Date.parse("2026-06-01T00:00:00Z") / 1000;
const H = 3600;

const calm: Scenario = () => ({ wind_gusts_10m: 20, weather_code: 3 });
/** Gusts of 75 km/h on day 1 from 20:00 to 22:00 UTC. */
const lateGale: Scenario = (_lat, _lon, time) => ({
  wind_gusts_10m: time >= DAY1 + 20 * H && time < DAY1 + 22 * H ? 75 : 20,
  weather_code: 3,
});

const RULE: AlertRuleInput = {
  name: "Gale",
  metric: "WIND_GUSTS",
  comparator: "AT_LEAST",
  threshold: 60,
  lookaheadHours: 6,
  cooldownHours: 3,
  notifyAllClear: true,
  urgent: false,
};

async function setUp() {
  let now = (DAY1 + H / 2) * 1000;
  const t = await api({ now: () => new Date(now) });
  t.fake.setScenario(calm);
  const token = await t.signUp();
  await t.gql(UPDATE_SETTINGS, { input: { timeZone: "UTC", windSpeedUnit: "KMH", hour12: false, language: "EN_US" } }, { token });
  const found = await t.gql(SEARCH_LONDON, {}, { token });
  await t.gql(ADD_OFFICE, { id: found.data!.searchLocations[0]!.id }, { token });
  const saved = await t.gql(SAVE, { input: RULE }, { token });
  const ruleId = saved.data!.saveAlertRule.id;
  /** One pass at `at` (epoch seconds): 1 if it evaluated the rule, else 0. */
  async function passAt(at: number) {
    now = at * 1000;
    const { evaluated } = await t.api.services.alerts.evaluateAll();
    return evaluated.filter((id) => id === ruleId).length;
  }
  return { t, token, ruleId, passAt };
}

describe("the change-driven engine", () => {
  it("evaluates a rule when it is new, when its forecast changes and at each of its time boundaries, and not otherwise", async () => {
    const { t, token, passAt } = await setUp();
    expect(await passAt(DAY1 + H / 2)).toBe(1); // new
    expect(await passAt(DAY1 + H / 2)).toBe(0);
    expect(await passAt(DAY1 + H / 2 + 600)).toBe(0);
    // The forecast is read again (older than 15 minutes), the same: nothing to do.
    expect(await passAt(DAY1 + 1.5 * H)).toBe(0);
    t.fake.setScenario(lateGale);
    expect(await passAt(DAY1 + 2.5 * H)).toBe(1); // changed, the gale beyond the 6-hour look-ahead
    const evaluatedAt: number[] = [];
    for (let hour = 3; hour <= 22; hour++) if (await passAt(DAY1 + (hour + 0.5) * H)) evaluatedAt.push(hour);
    // The gale's hours enter the look-ahead at 15:00 and 16:00 (told at 15:30), the cooldown ends at 18:30, they
    // leave it at 21:00 and 22:00 (the window is over: all clear).
    expect(evaluatedAt).toEqual([15, 16, 18, 21, 22]);
    const messages = (await t.gql(INBOX, {}, { token })).data!.messages.edges.reverse();
    expect(messages.map((message) => message.kind)).toEqual(["ALERT", "ALL_CLEAR"]);
  });

  it("evaluates a rule again when it is edited, when its snooze ends, is resumed, or its owner's settings change", async () => {
    const { t, token, ruleId, passAt } = await setUp();
    const start = DAY1 + H / 2;
    expect(await passAt(start)).toBe(1);
    await t.gql(SAVE_AGAIN, { id: ruleId, input: { ...RULE, threshold: 65 } }, { token });
    expect(await passAt(start + 60)).toBe(1);
    expect(await passAt(start + 120)).toBe(0);

    const until = new Date((start + 2 * H) * 1000).toISOString();
    expect((await t.gql(SNOOZE, { id: ruleId, until }, { token })).errors).toBeUndefined();
    expect(await passAt(start + 180)).toBe(0);
    expect(await passAt(start + H)).toBe(0);
    expect(await passAt(start + 2 * H)).toBe(1); // the snooze is over
    expect(await passAt(start + 2 * H + 60)).toBe(0);

    await t.gql(SNOOZE, { id: ruleId, until: new Date((start + 10 * H) * 1000).toISOString() }, { token });
    expect(await passAt(start + 2 * H + 120)).toBe(0);
    await t.gql(RESUME, { id: ruleId }, { token });
    expect(await passAt(start + 2 * H + 180)).toBe(1);

    await t.gql(UPDATE_SETTINGS, { input: { timeZone: "Europe/London" } }, { token });
    expect(await passAt(start + 2 * H + 240)).toBe(1);
    expect(await passAt(start + 2 * H + 300)).toBe(0);
  });
});

describe("a rule edited while a pass holds it", () => {
  it("stays woken: the pass writes its next wake only where the wake it read is still there", async () => {
    const { t, token, ruleId, passAt } = await setUp();
    expect(await passAt(DAY1 + H / 2)).toBe(1);
    const { db } = t.api.services;
    const at = new Date((DAY1 + H / 2 + 60) * 1000).toISOString();
    const readAndSchedule = async () => {
      const read = await claimWokenRules(db, at, null, 10, true);
      return async () =>
        scheduleWakes(
          db,
          read.map((rule) => ({ id: rule.id, read: rule.next_wake_at ?? null, next: null })),
        );
    };
    await t.gql(SAVE_AGAIN, { id: ruleId, input: RULE }, { token });
    const schedule = await readAndSchedule();
    // Edited again after the pass read it, before it wrote the next wake: each edit's wake differs from the last.
    await t.gql(SAVE_AGAIN, { id: ruleId, input: RULE }, { token });
    await schedule();
    expect((await claimWokenRules(db, at, null, 10, true)).map((rule) => rule.id)).toEqual([ruleId]);
    // Read and scheduled with nothing in between, it sleeps.
    await (
      await readAndSchedule()
    )();
    expect(await claimWokenRules(db, at, null, 10, true)).toEqual([]);
  });
});

describe("woken rules in batches", () => {
  it("takes a user's rules whole: a batch is counted in users, each with every woken rule of theirs", async () => {
    const t = await api({ now: () => new Date(DAY1 * 1000) });
    const tokens = [await t.signUp(), await t.signUp()];
    const found = await t.gql(SEARCH_LONDON, {}, { token: tokens[0] });
    for (const token of tokens) await t.gql(ADD_OFFICE, { id: found.data!.searchLocations[0]!.id }, { token });
    // Written in turns (A, B, A, B, A), so the table's own order mixes the owners.
    for (const token of [tokens[0], tokens[1], tokens[0], tokens[1], tokens[0]]) await t.gql(SAVE, { input: RULE }, { token });
    const { db } = t.api.services;
    const owners = new Map((await db.selectFrom("alert_rules").select(["id", "user_id"]).execute()).map((row) => [row.id, row.user_id]));
    const rulesOf = (userId: string) =>
      [...owners]
        .filter(([, owner]) => owner === userId)
        .map(([id]) => id)
        .sort();

    const claimed = await claimWokenRules(db, new Date(DAY1 * 1000).toISOString(), null, 1, true);
    const [userId] = new Set(claimed.map((rule) => rule.user_id));
    expect(claimed.map((rule) => rule.id).sort()).toEqual(rulesOf(userId!));
  });
});
