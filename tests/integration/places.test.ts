import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TypedDocumentNode } from "@urql/core";
import { addDays, zonedToInstant } from "~/api/bot/zoned-time";
import { codes, startTestApi, type GraphQLResponse, type TestApi } from "../support/api-server";
import {
  TestPlacesAddDocument as ADD,
  TestPlacesDayDocument as DAY,
  TestPlacesNowcastDocument as NOWCAST,
  TestPlacesSkyDocument as SKY,
  TestPlacesBriefingPlacesDocument as BRIEFING_PLACES,
  TestPlacesInboxPlacesDocument as INBOX_PLACES,
  TestPlacesListDocument as PLACES,
  TestPlacesOneDocument as PLACE,
  TestPlacesRemoveDocument as REMOVE,
  TestPlacesRenameDocument as RENAME,
  TestPlacesRenameOthersDocument as RENAME_OTHERS,
  TestPlacesReorderDocument as REORDER,
  TestPlacesReorderOthersDocument as REORDER_OTHERS,
  TestPlacesRestoreDocument as RESTORE,
  TestPlacesRulesDocument as RULES,
  TestPlacesSaveMorningDocument as SAVE_MORNING,
  TestPlacesSaveRuleDocument as SAVE_RULE,
  TestPlacesSearchDocument as SEARCH,
} from "../support/documents.generated";

let t: TestApi;
beforeAll(async () => {
  t = await startTestApi();
});
afterAll(() => t.close());

// Typed documents (places.graphql): the answers below are read with their generated result types.

async function addCity(token: string, name: string, label?: string) {
  const found = await t.gql(SEARCH, { q: name }, { token });
  const location = found.data!.searchLocations[0]!;
  const added = await t.gql(ADD, { locationId: location.id, label }, { token });
  if (!added.data) throw new Error(JSON.stringify(added.errors));
  return added.data.addPlace as { id: string; label: string; position: number };
}

describe("places", () => {
  it("searches locations and saves one under a label, in order", async () => {
    const token = await t.signUp();
    const found = await t.gql(SEARCH, { q: "zur" }, { token });
    expect(found.data!.searchLocations).toEqual([
      { id: "2657896", name: "Zurich", countryCode: "CH", timeZone: "Europe/Zurich", latitude: 47.36667 },
    ]);
    const home = await addCity(token, "zur", "  Home   sweet home ");
    expect(home).toMatchObject({ label: "Home sweet home", position: 0 });
    const office = await addCity(token, "berlin");
    expect(office).toMatchObject({ label: "Berlin", position: 1 });
    expect((await t.gql(PLACES, {}, { token })).data!.places.map((p: { label: string }) => p.label)).toEqual(["Home sweet home", "Berlin"]);
  });

  it("saves a bare coordinate with the time zone its forecast names", async () => {
    const token = await t.signUp();
    const added = await t.gql(ADD, { latitude: 40.42, longitude: -3.7, label: "Plaza" }, { token });
    expect(added.data!.addPlace).toMatchObject({ label: "Plaza", timeZone: "Europe/Madrid", name: "40.42, -3.70" });
    const bad = await t.gql(ADD, { latitude: 91, longitude: 0 }, { token });
    expect(codes(bad)).toEqual(["BAD_USER_INPUT"]);
    expect(codes(await t.gql(ADD, {}, { token }))).toEqual(["BAD_USER_INPUT"]);
    expect(codes(await t.gql(ADD, { locationId: "999999" }, { token }))).toEqual(["NOT_FOUND"]);
  });

  it("gives any of a place's days hour by hour, in the place's time, and no hours for a date outside its forecast", async () => {
    const token = await t.signUp();
    const { id } = (await t.gql(ADD, { latitude: 40.42, longitude: -3.7, label: "Plaza" }, { token })).data!.addPlace;
    const days = (await t.gql(DAY, { id, date: "2000-01-01" }, { token })).data!.place!.weather;
    expect(days.hourlyOn).toEqual([]);
    const date = days.daily[5]!.date;
    const hours = (await t.gql(DAY, { id, date }, { token })).data!.place!.weather.hourlyOn;
    // 24 hours, or 23 or 25 when the clocks change there that day (the test runs at any date).
    const midnight = (day: string) => zonedToInstant(day, "00:00", days.timeZone).getTime();
    expect(hours).toHaveLength((midnight(addDays(date, 1)) - midnight(date)) / 3_600_000);
    const localDate = (iso: string) => new Intl.DateTimeFormat("en-CA", { timeZone: days.timeZone }).format(new Date(iso));
    expect(hours.map((hour) => localDate(hour.time))).toEqual(Array(hours.length).fill(date));
    expect(codes(await t.gql(DAY, { id, date: "26.11.2026" }, { token }))).toEqual(["BAD_USER_INPUT"]);
  });

  it.each([
    ["springs forward: 23 hours", "2027-03-24T12:00:00Z", "2027-03-28", 23],
    ["falls back: 25 hours", "2027-10-27T12:00:00Z", "2027-10-31", 25],
  ])("gives a day whose clocks change hour by hour in the place's time (%s)", async (_, now, date, count) => {
    // The forecast was fetched before the change, under the offset of the days before it.
    const before = await startTestApi({ now: () => new Date(now) });
    try {
      const token = await before.signUp();
      const { id } = (await before.gql(ADD, { latitude: 40.42, longitude: -3.7, label: "Plaza" }, { token })).data!.addPlace;
      const hours = (await before.gql(DAY, { id, date }, { token })).data!.place!.weather.hourlyOn;
      const local = new Intl.DateTimeFormat("en-CA", {
        timeZone: "Europe/Madrid",
        dateStyle: "short",
        timeStyle: "short",
        hourCycle: "h23",
      });
      const clock = hours.map((hour) => local.format(new Date(hour.time)));
      expect(clock).toHaveLength(count);
      expect(clock[0]).toBe(`${date}, 00:00`);
      expect(clock.at(-1)).toBe(`${date}, 23:00`);
    } finally {
      await before.close();
    }
  });

  it("gives humidity, dew point, pressure, wind direction and visibility now, and today's sun", async () => {
    const token = await t.signUp();
    const { id } = (await t.gql(ADD, { latitude: 40.42, longitude: -3.7, label: "Plaza" }, { token })).data!.addPlace;
    const { current, daily } = (await t.gql(SKY, { id }, { token })).data!.place!.weather;
    for (const value of Object.values(current)) expect(value).toEqual(expect.any(Number));
    expect(current.humidity).toBeGreaterThan(0);
    expect(current.pressure).toBeGreaterThan(900);
    expect(daily[0]!.daylightDuration).toBe(10 * 3600);
    expect(Date.parse(daily[0]!.sunset) - Date.parse(daily[0]!.sunrise)).toBe(10 * 3600 * 1000);
  });

  it("gives the next 2 hours in quarter hours, from the one now running", async () => {
    const token = await t.signUp();
    const { id } = (await t.gql(ADD, { latitude: 40.42, longitude: -3.7, label: "Plaza" }, { token })).data!.addPlace;
    const quarter = () => Math.floor(Date.now() / 900_000) * 900_000;
    const before = quarter();
    const { nowcast } = (await t.gql(NOWCAST, { id }, { token })).data!.place!.weather;
    // The quarter hour may turn while the request runs.
    expect([before, quarter()]).toContain(Date.parse(nowcast[0]!.time));
    expect(nowcast).toHaveLength(8);
    const first = Date.parse(nowcast[0]!.time);
    expect(nowcast.map((step) => Date.parse(step.time) - first)).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map((i) => i * 900_000));
    for (const step of nowcast) expect(step.precipitation).toBeGreaterThanOrEqual(0);
  });

  it("refuses labels with control characters, naming the field, and writes nothing", async () => {
    const token = await t.signUp();
    const place = await addCity(token, "paris");
    for (const label of ["Home\u0000", "Wo\u0007rk", "A\u202Eevil"]) {
      const renamed = await t.gql(RENAME, { id: place.id, label }, { token });
      expect(codes(renamed)).toEqual(["BAD_USER_INPUT"]);
      expect(renamed.errors![0]!.extensions).toMatchObject({ field: "label", reason: "LABEL_CONTROL_CHARACTERS" });
      expect(renamed.errors![0]!.message).toBe("A label cannot contain control characters");
    }
    const found = await t.gql(SEARCH, { q: "berlin" }, { token });
    const added = await t.gql(ADD, { locationId: found.data!.searchLocations[0]!.id, label: "Office\u0000" }, { token });
    expect(added.errors![0]!.extensions).toMatchObject({ code: "BAD_USER_INPUT", field: "label" });
    expect((await t.gql(PLACES, {}, { token })).data!.places.map((p: { label: string }) => p.label)).toEqual(["Paris"]);
  });

  it("renames, reorders and removes, keeping positions dense", async () => {
    const token = await t.signUp();
    const a = await addCity(token, "paris");
    const b = await addCity(token, "madrid");
    const c = await addCity(token, "london");
    const renamed = await t.gql(RENAME, { id: b.id, label: "Work" }, { token });
    expect(renamed.data!.renamePlace.label).toBe("Work");
    expect(codes(await t.gql(RENAME, { id: b.id, label: "   " }, { token }))).toEqual(["BAD_USER_INPUT"]);
    expect(codes(await t.gql(RENAME, { id: b.id, label: "x".repeat(61) }, { token }))).toEqual(["BAD_USER_INPUT"]);

    const reordered = await t.gql(REORDER, { ids: [c.id, a.id, b.id] }, { token });
    expect(reordered.data!.reorderPlaces).toEqual([
      { id: c.id, position: 0 },
      { id: a.id, position: 1 },
      { id: b.id, position: 2 },
    ]);
    for (const ids of [
      [c.id, a.id],
      [c.id, a.id, a.id],
      [c.id, a.id, b.id, "nope"],
    ]) {
      expect(codes(await t.gql(REORDER, { ids }, { token }))).toEqual(["BAD_USER_INPUT"]);
    }

    const removed = await t.gql(REMOVE, { id: a.id }, { token });
    expect(removed.data!.removePlace).toBe(a.id);
    expect((await t.gql(PLACES, {}, { token })).data!.places).toEqual([
      { id: c.id, label: "London", position: 0 },
      { id: b.id, label: "Work", position: 1 },
    ]);
  });

  it("never lets one user read or change another user's places", async () => {
    const alice = await t.signUp();
    const mallory = await t.signUp();
    const place = await addCity(alice, "sydney", "Beach");

    expect((await t.gql(PLACE, { id: place.id }, { token: mallory })).data!.place).toBeNull();
    expect((await t.gql(PLACES, {}, { token: mallory })).data!.places).toEqual([]);
    expect(codes(await t.gql(RENAME_OTHERS, { id: place.id }, { token: mallory }))).toEqual(["NOT_FOUND"]);
    expect(codes(await t.gql(REMOVE, { id: place.id }, { token: mallory }))).toEqual(["NOT_FOUND"]);
    expect(codes(await t.gql(REORDER_OTHERS, { ids: [place.id] }, { token: mallory }))).toEqual(["BAD_USER_INPUT"]);
    // Alice's place is untouched.
    expect((await t.gql(PLACES, {}, { token: alice })).data!.places).toEqual([{ id: place.id, label: "Beach", position: 0 }]);
  });

  it("caps a user at 20 places", async () => {
    const token = await t.signUp();
    for (let i = 0; i < 20; i++) {
      const result = await t.gql(ADD, { latitude: 10 + i, longitude: 10, label: `P${i}` }, { token });
      expect(result.errors).toBeUndefined();
    }
    const over = await t.gql(ADD, { latitude: 45, longitude: 10, label: "one too many" }, { token });
    expect(codes(over)).toEqual(["BAD_USER_INPUT"]);
    expect((await t.gql(PLACES, {}, { token })).data!.places).toHaveLength(20);
  });

  it("caps places added at the same moment too, each at a position of its own", async () => {
    const token = await t.signUp();
    for (let i = 0; i < 17; i++) {
      expect((await t.gql(ADD, { latitude: 10 + i, longitude: 10, label: `P${i}` }, { token })).errors).toBeUndefined();
    }
    // On PostgreSQL transactions run side by side: each must still see the others' places.
    const added = await Promise.all(
      Array.from({ length: 6 }, (_, i) => t.gql(ADD, { latitude: 50 + i, longitude: 10, label: `Q${i}` }, { token })),
    );
    expect(added.filter((result) => result.data?.addPlace).length).toBe(3);
    expect(added.flatMap(codes).sort()).toEqual(["BAD_USER_INPUT", "BAD_USER_INPUT", "BAD_USER_INPUT"]);
    const positions = (await t.gql(PLACES, {}, { token })).data!.places.map((place: { position: number }) => place.position);
    expect(positions).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it("returns nothing for a one-character search without asking upstream", async () => {
    const before = t.fake.calls.geocoding;
    expect((await t.gql(SEARCH, { q: "b" })).data!.searchLocations).toEqual([]);
    expect(t.fake.calls.geocoding).toBe(before);
  });
});

describe("undo of a removed place", () => {
  it("puts it back where it was with its rules, briefing slots and inbox links, once, within 10 minutes, for its owner only", async () => {
    let now = Date.parse("2026-06-01T06:00:00Z");
    const api = await startTestApi({ now: () => new Date(now) });
    try {
      const token = await api.signUp();
      const gql = <R, V extends Record<string, unknown>>(document: TypedDocumentNode<R, V>, variables = {} as V, as = token) =>
        api.gql(document, variables, { token: as }) as Promise<GraphQLResponse<R>>;
      const home = (await gql(ADD, { latitude: 51.5, longitude: -0.12, label: "Home" })).data!.addPlace;
      const cabin = (await gql(ADD, { latitude: 46.5, longitude: 9.8, label: "Cabin" })).data!.addPlace;
      await gql(ADD, { latitude: 52.5, longitude: 13.4, label: "Office" });
      const own = (await gql(SAVE_RULE, { input: { name: "Cabin wind", placeId: cabin.id, metric: "WIND_GUSTS", threshold: 0 } })).data!
        .saveAlertRule;
      // Each rule's first pass on its own (rules new in one pass would be told in one summary).
      await api.api.services.alerts.evaluateAll();
      await gql(SAVE_RULE, { input: { name: "Anywhere wind", metric: "WIND_GUSTS", threshold: 0 } });
      await gql(SAVE_MORNING, { ids: [home.id, cabin.id] });
      await api.api.services.alerts.evaluateAll();
      const before = {
        places: (await gql(PLACES)).data!.places,
        rules: (await gql(RULES)).data!.alertRules,
        briefings: (await gql(BRIEFING_PLACES)).data!.briefings,
        inbox: (await gql(INBOX_PLACES)).data!.messages.edges,
      };
      expect(before.rules).toContainEqual({ id: own.id, name: "Cabin wind", state: "TRIGGERED", place: { id: cabin.id } });
      // Both rules watch the same gusts, so the cabin's window is told once (by the older rule).
      expect(before.inbox.filter((edge: { place: { id: string } | null }) => edge.place?.id === cabin.id)).toHaveLength(1);

      expect((await gql(REMOVE, { id: cabin.id })).data!.removePlace).toBe(cabin.id);
      expect((await gql(RULES)).data!.alertRules.map((r: { name: string }) => r.name)).toEqual(["Anywhere wind"]);
      expect((await gql(BRIEFING_PLACES)).data!.briefings).toEqual([{ places: [{ id: home.id }] }]);

      // Nobody else can restore it, and trying changes nothing.
      const mallory = await api.signUp();
      const refused = await gql(RESTORE, { id: cabin.id }, mallory);
      expect(codes(refused)).toEqual(["NOT_FOUND"]);
      expect(refused.errors![0]!.message).toBe("Nothing to restore: no place was removed here in the last 10 minutes");
      expect((await gql(PLACES, {}, mallory)).data!.places).toEqual([]);

      now += 9 * 60_000;
      expect((await gql(RESTORE, { id: cabin.id })).data!.restorePlace).toEqual({ id: cabin.id, label: "Cabin", position: 1 });
      expect((await gql(PLACES)).data!.places).toEqual(before.places);
      expect((await gql(RULES)).data!.alertRules).toEqual(before.rules);
      expect((await gql(BRIEFING_PLACES)).data!.briefings).toEqual(before.briefings);
      expect((await gql(INBOX_PLACES)).data!.messages.edges).toEqual(before.inbox);
      expect(codes(await gql(RESTORE, { id: cabin.id }))).toEqual(["NOT_FOUND"]);

      // Past the window it is gone for good.
      await gql(REMOVE, { id: cabin.id });
      now += 10 * 60_000 + 1;
      expect(codes(await gql(RESTORE, { id: cabin.id }))).toEqual(["NOT_FOUND"]);
      expect((await gql(PLACES)).data!.places.map((p: { label: string }) => p.label)).toEqual(["Home", "Office"]);
    } finally {
      await api.close();
    }
  });
});
