import { afterEach, describe, expect, it } from "vitest";
import type { Scenario } from "../fakes/open-meteo";
import { alertMessage } from "~/api/bot/alert-text.server";
import { InboxDocument } from "~/lib/graphql/signed-in-documents.generated";
import { startFakePushService } from "../fakes/push-service";
import { startTestApi, testApis, type TestApi } from "../support/api-server";
import {
  TestTextAddOfficeDocument as ADD_OFFICE,
  TestTextInboxDocument as INBOX,
  TestTextSaveBriefingDocument as SAVE_BRIEFING,
  TestTextSavePushDocument as SAVE_PUSH,
  TestTextSaveRuleDocument as SAVE_RULE,
  TestTextSearchLondonDocument as SEARCH_LONDON,
  TestTextSendBriefingDocument as SEND_BRIEFING,
  TestTextSettingsDocument as SETTINGS,
  TestTextViewerDocument as VIEWER,
  type SettingsInput,
} from "../support/documents.generated";

const api = testApis();
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

const DAY1 = Date.parse("2026-06-01T00:00:00Z") / 1000; // a Monday
const H = 3600;
/** Gusts of 82 km/h on day 1 from 12:00 to 15:00 UTC (13:00 to 16:00 in London), calm otherwise. */
const gale: Scenario = (_lat, _lon, time) => ({ wind_gusts_10m: time >= DAY1 + 12 * H && time < DAY1 + 15 * H ? 82 : 20, weather_code: 3 });

const AMERICAN: SettingsInput = {
  language: "EN_US",
  temperatureUnit: "FAHRENHEIT",
  windSpeedUnit: "MPH",
  precipitationUnit: "INCH",
  hour12: true,
  timeZone: "Europe/London",
};
const GERMAN: SettingsInput = {
  language: "DE_DE",
  temperatureUnit: "CELSIUS",
  windSpeedUnit: "KMH",
  precipitationUnit: "MM",
  hour12: false,
};

/** A user in London with English, °F, mph and a 12-hour clock, an "Office" in London and a gale rule on it. */
async function setUp(t: TestApi) {
  t.fake.setScenario(gale);
  const token = await t.signUp();
  expect((await t.gql(SETTINGS, { input: AMERICAN }, { token })).errors).toBeUndefined();
  const found = await t.gql(SEARCH_LONDON, {}, { token });
  const placeId = (await t.gql(ADD_OFFICE, { id: found.data!.searchLocations[0]!.id }, { token })).data!.addPlace.id;
  const rule = await t.gql(
    SAVE_RULE,
    {
      input: {
        name: "Gale",
        metric: "WIND_GUSTS",
        comparator: "AT_LEAST",
        threshold: 60,
        lookaheadHours: 24,
        cooldownHours: 6,
        notifyAllClear: false,
        urgent: true,
      },
    },
    { token },
  );
  expect(rule.errors).toBeUndefined();
  const userId = (await t.gql(VIEWER, {}, { token })).data!.me!.id;
  return { token, placeId, userId };
}

const inbox = async (t: TestApi, token: string) => (await t.gql(INBOX, {}, { token })).data!.messages.edges;

describe("messages in the reader's words", () => {
  it("an alert written for English and °F reads in German and °C after the user switches, through title, body and content", async () => {
    const t = await api({ now: () => new Date(DAY1 * 1000) });
    const { token, placeId } = await setUp(t);
    await t.api.services.alerts.evaluateAll();
    const [written] = await inbox(t, token);
    expect(written).toMatchObject({
      kind: "ALERT",
      title: "Gale: Office",
      body: "Gusts 51 mph in Office from Mon 1:00 PM to 4:00 PM, peak 1:00 PM.",
    });
    const content = {
      version: 1,
      kind: "ALERT",
      place: { id: placeId, label: "Office", timeZone: "Europe/London" },
      ruleName: "Gale",
      metric: "WIND_GUSTS",
      comparator: "AT_LEAST",
      threshold: 60,
      from: "2026-06-01T12:00:00.000Z",
      to: "2026-06-01T15:00:00.000Z",
      peakAt: "2026-06-01T12:00:00.000Z",
      peakValue: 82,
      condition: null,
      briefingName: null,
      period: null,
      places: null,
    };
    expect(written!.content).toEqual(content);

    expect((await t.gql(SETTINGS, { input: GERMAN }, { token })).errors).toBeUndefined();
    const [reread] = await inbox(t, token);
    expect(reread).toMatchObject({ title: "Gale: Office", body: "Böen 82 km/h in Office von Mo 13:00 bis 16:00, Spitze 13:00." });
    expect(reread!.content).toEqual(content);
    // The app's own inbox document (within the API's depth and token limits) carries the content too.
    const app = await t.gql(InboxDocument, {}, { token });
    expect(app.errors).toBeUndefined();
    expect(app.data!.messages.edges[0]!.content).toMatchObject({ kind: "ALERT", ruleName: "Gale", place: { label: "Office" } });

    // In Berlin the clock shows other times than the place's: the place's zone is named.
    await t.gql(SETTINGS, { input: { timeZone: "Europe/Berlin" } }, { token });
    expect((await inbox(t, token))[0]!.body).toBe("Böen 82 km/h in Office von Mo 13:00 bis 16:00 GMT+1, Spitze 13:00.");
  });

  it("a briefing is formatted again from its figures; a message without content keeps its stored text", async () => {
    const t = await api({ now: () => new Date(DAY1 * 1000 + 6 * H * 1000) });
    const { token, placeId, userId } = await setUp(t);
    const saved = await t.gql(
      SAVE_BRIEFING,
      { input: { name: "Morning", placeIds: [placeId], period: "TODAY", time: "07:00", days: ["MON"] } },
      { token },
    );
    await t.gql(SEND_BRIEFING, { id: saved.data!.saveBriefing.id }, { token });
    await t.api.services.inbox.write({ userId, kind: "SYSTEM", title: "Stored title", body: "Stored text, 70 °F", dedupeKey: "old" });
    const [old, briefing] = await inbox(t, token);
    expect(briefing).toMatchObject({ kind: "BRIEFING", title: "Morning · Today" });
    expect(briefing!.body).toMatch(/^Office: [^,]+, -?\d+ °F to -?\d+ °F, (dry|rain from .+), gusts up to 51 mph\.$/);
    expect(briefing!.content).toMatchObject({
      kind: "BRIEFING",
      briefingName: "Morning",
      period: "TODAY",
      places: [{ place: { label: "Office" }, maxGusts: 82 }],
    });
    expect(old).toMatchObject({ title: "Stored title", body: "Stored text, 70 °F", content: null });

    await t.gql(SETTINGS, { input: GERMAN }, { token });
    const [oldAfter, briefingAfter] = await inbox(t, token);
    expect(briefingAfter!.title).toBe("Morning · Heute");
    expect(briefingAfter!.body).toMatch(/^Office: [^,]+, -?\d+ °C bis -?\d+ °C, (trocken|Regen ab .+), Böen bis 82 km\/h\.$/);
    expect(oldAfter).toMatchObject({ title: "Stored title", body: "Stored text, 70 °F", content: null });
  });

  it("a push is formatted for the recipient's preferences when it is sent, not when it was written", async () => {
    const pushService = await startFakePushService();
    const t = await startTestApi({ now: () => new Date(DAY1 * 1000), pushAllowLoopback: true });
    cleanups.push(
      () => t.close(),
      () => pushService.close(),
    );
    const { token, placeId, userId } = await setUp(t);
    const device = pushService.subscription("device-1");
    await t.gql(SAVE_PUSH, { endpoint: device.endpoint, p256dh: device.p256dh, auth: device.auth }, { token });
    await t.gql(SETTINGS, { input: { pushEnabled: true } }, { token });
    // Written while the user read English, °F and a 12-hour clock...
    const english = {
      language: "EN_US",
      time_zone: "Europe/London",
      hour12: 1,
      temperature_unit: "FAHRENHEIT",
      wind_speed_unit: "MPH",
      precipitation_unit: "INCH",
    };
    const match = { from: DAY1 + 12 * H, to: DAY1 + 15 * H, peakAt: DAY1 + 12 * H, peakValue: 82 };
    const text = alertMessage(
      { name: "Gale", metric: "WIND_GUSTS", comparator: "AT_LEAST", threshold: 60 },
      [{ place: { id: placeId, label: "Office", time_zone: "Europe/London" }, matches: [match] }],
      english,
    );
    const row = await t.api.services.inbox.write({ userId, kind: "ALERT", ...text, urgent: true, dedupeKey: "gale" });
    expect(row!.body).toBe("Gusts 51 mph in Office from Mon 1:00 PM to 4:00 PM, peak 1:00 PM.");
    // ...and sent after they switched to German, °C and a 24-hour clock.
    await t.gql(SETTINGS, { input: GERMAN }, { token });
    expect(await t.api.services.push.deliver(row!)).toBe(1);
    expect(device.decrypt(pushService.received[0]!.body)).toMatchObject({
      title: "Gale: Office",
      body: "Böen 82 km/h in Office von Mo 13:00 bis 16:00, Spitze 13:00.",
      kind: "ALERT",
    });
  });
});
