import { describe, expect, it } from "vitest";
import { codes, testApis, type TestApi } from "../support/api-server";
import {
  TestBriefingAddPlaceDocument as ADD_PLACE,
  TestBriefingIdsDocument as BRIEFING_IDS,
  TestBriefingInboxDocument as INBOX,
  TestBriefingRunsDocument as RUNS,
  TestBriefingSearchDocument as SEARCH,
  TestBriefingTimesDocument as TIMES,
  TestBriefingUserSettingsDocument as UPDATE_SETTINGS,
  TestDeleteBriefingDocument as DELETE_BRIEFING,
  TestSaveBriefingDocument as SAVE,
  TestSendBriefingNowDocument as SEND_NOW,
  type BriefingInput,
  type SettingsInput,
} from "../support/documents.generated";

const api = testApis();

function manualClock(start: string) {
  let now = Date.parse(start);
  return { now: () => new Date(now), set: (iso: string) => (now = Date.parse(iso)) };
}

// Typed documents (briefings.graphql): the answers below are read with their generated result types.

async function userWithPlace(t: TestApi, settings: SettingsInput = {}) {
  const token = await t.signUp();
  if (Object.keys(settings).length) {
    await t.gql(UPDATE_SETTINGS, { input: settings }, { token });
  }
  const found = await t.gql(SEARCH, { query: "berlin" }, { token });
  const place = await t.gql(ADD_PLACE, { locationId: found.data!.searchLocations[0]!.id, label: "Home" }, { token });
  return { token, placeId: place.data!.addPlace.id };
}

const morning = (placeIds: string[]): BriefingInput => ({
  name: "Morning",
  placeIds,
  period: "TODAY",
  time: "07:00",
  days: ["MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"],
});

describe("briefings", () => {
  it("saves a briefing with its next run in the user's time zone", async () => {
    const clock = manualClock("2026-03-28T12:00:00Z");
    const t = await api({ now: clock.now });
    const { token, placeId } = await userWithPlace(t, { timeZone: "Europe/Berlin" });
    const saved = await t.gql(SAVE, { input: morning([placeId]) }, { token });
    expect(saved.errors).toBeUndefined();
    // 29 March 2026 is the spring-forward day in Berlin: 07:00 CEST = 05:00 UTC.
    expect(saved.data!.saveBriefing).toMatchObject({
      name: "Morning",
      enabled: true,
      nextRunAt: "2026-03-29T05:00:00.000Z",
      places: [{ label: "Home" }],
    });
  });

  it("moves every briefing's next run to the new time zone when the user changes it", async () => {
    const clock = manualClock("2026-03-28T12:00:00Z"); // a Saturday
    const t = await api({ now: clock.now });
    const { token, placeId } = await userWithPlace(t, { timeZone: "Europe/Berlin" });
    await t.gql(SAVE, { input: morning([placeId]) }, { token });
    await t.gql(
      SAVE,
      { input: { ...morning([placeId]), name: "Weekdays", time: "18:30", days: ["MON", "TUE", "WED", "THU", "FRI"] } },
      { token },
    );
    await t.gql(SAVE, { input: { ...morning([placeId]), name: "Off", enabled: false } }, { token });
    const other = await userWithPlace(t, { timeZone: "Europe/Berlin" });
    await t.gql(SAVE, { input: morning([other.placeId]) }, { token: other.token });

    const changed = await t.gql(UPDATE_SETTINGS, { input: { timeZone: "Asia/Tokyo" } }, { token });
    expect(changed.data!.updateSettings.timeZone).toBe("Asia/Tokyo");
    const runs = async (who: string) =>
      Object.fromEntries((await t.gql(RUNS, {}, { token: who })).data!.briefings.map((b) => [b.name, b.nextRunAt]));
    // 12:00 UTC is 21:00 on Saturday in Tokyo: next 07:00 there is Sunday (22:00 UTC Saturday), next weekday 18:30 is Monday.
    expect(await runs(token)).toEqual({ Morning: "2026-03-28T22:00:00.000Z", Weekdays: "2026-03-30T09:30:00.000Z", Off: null });
    // Another user's schedule is theirs: still 07:00 Berlin (CEST from Sunday).
    expect(await runs(other.token)).toEqual({ Morning: "2026-03-29T05:00:00.000Z" });

    // The scheduler follows: at 07:00 Tokyo the briefing is sent, and the next one is 07:00 Tokyo the day after.
    clock.set("2026-03-28T22:00:30Z");
    expect(await t.api.services.briefings.runDue()).toMatchObject({ sent: 1 });
    expect((await runs(token)).Morning).toBe("2026-03-29T22:00:00.000Z");

    // Saving the same zone again changes nothing; an unknown zone changes nothing at all.
    expect(codes(await t.gql(UPDATE_SETTINGS, { input: { timeZone: "Mars/Olympus", language: "DE_DE" } }, { token }))).toEqual([
      "BAD_USER_INPUT",
    ]);
    expect((await runs(token)).Morning).toBe("2026-03-29T22:00:00.000Z");
  });

  it("validates input and refuses another user's places", async () => {
    const t = await api();
    const alice = await userWithPlace(t);
    const bob = await userWithPlace(t);
    expect(codes(await t.gql(SAVE, { input: { ...morning([alice.placeId]), name: " " } }, { token: alice.token }))).toEqual([
      "BAD_USER_INPUT",
    ]);
    expect(codes(await t.gql(SAVE, { input: { ...morning([alice.placeId]), days: [] } }, { token: alice.token }))).toEqual([
      "BAD_USER_INPUT",
    ]);
    expect(codes(await t.gql(SAVE, { input: { ...morning([alice.placeId]), time: "7am" } }, { token: alice.token }))[0]).toBeTruthy();
    expect(codes(await t.gql(SAVE, { input: morning([bob.placeId]) }, { token: alice.token }))).toEqual(["BAD_USER_INPUT"]);
    const mine = await t.gql(SAVE, { input: morning([alice.placeId]) }, { token: alice.token });
    const id = mine.data!.saveBriefing.id;
    expect(codes(await t.gql(SAVE, { id, input: morning([bob.placeId]) }, { token: bob.token }))).toEqual(["NOT_FOUND"]);
    expect(codes(await t.gql(SEND_NOW, { id }, { token: bob.token }))).toEqual(["NOT_FOUND"]);
    expect(codes(await t.gql(DELETE_BRIEFING, { id }, { token: bob.token }))).toEqual(["NOT_FOUND"]);
    expect((await t.gql(BRIEFING_IDS, {}, { token: bob.token })).data!.briefings).toEqual([]);
  });

  it("'send now' writes the briefing in the user's language and units", async () => {
    const t = await api();
    const german = await userWithPlace(t, {
      language: "DE_DE",
      temperatureUnit: "CELSIUS",
      windSpeedUnit: "KMH",
      hour12: false,
      timeZone: "Europe/Berlin",
    });
    const saved = await t.gql(SAVE, { input: { ...morning([german.placeId]), period: "TOMORROW" } }, { token: german.token });
    const sent = await t.gql(SEND_NOW, { id: saved.data!.saveBriefing.id }, { token: german.token });
    expect(sent.data!.sendBriefingNow.kind).toBe("BRIEFING");
    expect(sent.data!.sendBriefingNow.title).toBe("Morning · Morgen");
    // The fake's Berlin has rain and strong gusts tomorrow; Intl puts a no-break space before "%".
    expect(sent.data!.sendBriefingNow.body).toMatch(
      /^Home: [^,]+, -?\d+ °C bis -?\d+ °C, Regen ab \d\d:\d\d \(\d+\s%\), Böen bis \d+ km\/h\.$/,
    );

    // Their clock is not Berlin's: the rain's hour is Berlin's, labelled with its offset.
    const american = await userWithPlace(t, { language: "EN_US", temperatureUnit: "FAHRENHEIT" });
    const savedUs = await t.gql(SAVE, { input: morning([american.placeId]) }, { token: american.token });
    const sentUs = await t.gql(SEND_NOW, { id: savedUs.data!.saveBriefing.id }, { token: american.token });
    expect(sentUs.data!.sendBriefingNow.title).toBe("Morning · Today");
    expect(sentUs.data!.sendBriefingNow.body).toMatch(
      /^Home: [^,]+, -?\d+ °F to -?\d+ °F, (dry|rain from [1-9]\d?:\d\d [AP]M( GMT[+-]\d+)? \(\d+%\))(, gusts up to \d+ mph)?\.$/,
    );

    const inbox = await t.gql(INBOX, {}, { token: german.token });
    expect(inbox.data!.messages.edges).toHaveLength(1);
    expect(inbox.data!.messages.edges[0]).toMatchObject({ briefing: { name: "Morning" }, place: { label: "Home" } });
    expect(inbox.data!.me!.unreadCount).toBe(1);
  });

  it.each([
    ["the spring-forward day", "2026-03-29", "2026-03-29T05:00:00.000Z", "2026-03-30T05:00:00.000Z"],
    ["the fall-back day", "2026-10-25", "2026-10-25T06:00:00.000Z", "2026-10-26T06:00:00.000Z"],
  ])("fires once at 07:00 Berlin time on %s", async (_, day, dueUtc, nextUtc) => {
    const clock = manualClock(`${day}T00:30:00Z`);
    const t = await api({ now: clock.now });
    const { token, placeId } = await userWithPlace(t, { timeZone: "Europe/Berlin" });
    await t.gql(SAVE, { input: morning([placeId]) }, { token });

    clock.set(new Date(Date.parse(dueUtc) - 60_000).toISOString());
    expect(await t.api.services.briefings.runDue()).toEqual({ sent: 0, skipped: 0 });
    clock.set(dueUtc);
    expect(await t.api.services.briefings.runDue()).toEqual({ sent: 1, skipped: 0 });
    clock.set(new Date(Date.parse(dueUtc) + 30_000).toISOString());
    expect(await t.api.services.briefings.runDue()).toEqual({ sent: 0, skipped: 0 });

    const briefing = await t.gql(TIMES, {}, { token });
    expect(briefing.data!.briefings[0]).toEqual({ nextRunAt: nextUtc, lastSentAt: dueUtc });
    expect((await t.gql(INBOX, {}, { token })).data!.messages.edges).toHaveLength(1);
  });

  it("two processes on one database write each briefing once", async () => {
    const clock = manualClock("2026-06-01T04:00:00Z");
    const first = await api({ now: clock.now });
    const second = await api({ now: clock.now, dataDir: first.dataDir, databaseUrl: first.databaseUrl, fake: first.fake });
    const { token, placeId } = await userWithPlace(first, { timeZone: "Europe/Berlin" });
    await first.gql(SAVE, { input: morning([placeId]) }, { token });
    clock.set("2026-06-01T05:00:10Z");
    const results = await Promise.all([
      first.api.services.briefings.runDue(),
      second.api.services.briefings.runDue(),
      first.api.services.briefings.runDue(),
    ]);
    expect(results.reduce((sum, result) => sum + result.sent, 0)).toBe(1);
    expect((await first.gql(INBOX, {}, { token })).data!.messages.edges).toHaveLength(1);
  });

  it("a pass that dies between deciding and writing loses nothing: the next pass sends it", async () => {
    const clock = manualClock("2026-06-01T04:00:00Z");
    const t = await api({ now: clock.now });
    const { token, placeId } = await userWithPlace(t, { timeZone: "Europe/Berlin" });
    await t.gql(SAVE, { input: morning([placeId]) }, { token });
    clock.set("2026-06-01T05:00:00Z");
    const inbox = t.api.services.inbox;
    const realWrite = inbox.write;
    inbox.write = async () => {
      throw new Error("process killed");
    };
    await expect(t.api.services.briefings.runDue()).rejects.toThrow("process killed");
    inbox.write = realWrite;
    const briefing = await t.gql(TIMES, {}, { token });
    expect(briefing.data!.briefings[0]!.nextRunAt).toBe("2026-06-01T05:00:00.000Z"); // still due
    clock.set("2026-06-01T05:01:00Z");
    expect(await t.api.services.briefings.runDue()).toEqual({ sent: 1, skipped: 0 });
  });

  it("skips a briefing more than an hour late instead of sending stale news", async () => {
    const clock = manualClock("2026-06-01T04:00:00Z");
    const t = await api({ now: clock.now });
    const { token, placeId } = await userWithPlace(t, { timeZone: "Europe/Berlin" });
    await t.gql(SAVE, { input: morning([placeId]) }, { token });
    clock.set("2026-06-01T07:30:00Z");
    expect(await t.api.services.briefings.runDue()).toEqual({ sent: 0, skipped: 1 });
    expect((await t.gql(TIMES, {}, { token })).data!.briefings[0]!.nextRunAt).toBe("2026-06-02T05:00:00.000Z");
  });
});
