import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codes, startTestApi, type TestApi } from "../support/api-server";

let t: TestApi;
beforeAll(async () => {
  t = await startTestApi();
});
afterAll(() => t.close());

const SEARCH = `query ($q: String!) { searchLocations(query: $q) { id name countryCode timeZone latitude } }`;
const ADD = `mutation ($locationId: ID, $latitude: Float, $longitude: Float, $label: String) {
  addPlace(locationId: $locationId, latitude: $latitude, longitude: $longitude, label: $label) { id label name position timeZone }
}`;
const PLACES = `{ places { id label position } }`;

async function addCity(token: string, name: string, label?: string) {
  const found = await t.gql(SEARCH, { q: name }, { token });
  const location = found.data!.searchLocations[0];
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
    expect((await t.gql(PLACES, {}, { token })).data!.places.map((p: { label: string }) => p.label)).toEqual([
      "Home sweet home",
      "Berlin",
    ]);
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

  it("renames, reorders and removes, keeping positions dense", async () => {
    const token = await t.signUp();
    const a = await addCity(token, "paris");
    const b = await addCity(token, "madrid");
    const c = await addCity(token, "london");
    const renamed = await t.gql(`mutation ($id: ID!) { renamePlace(id: $id, label: "Work") { label } }`, { id: b.id }, { token });
    expect(renamed.data!.renamePlace.label).toBe("Work");
    expect(codes(await t.gql(`mutation ($id: ID!) { renamePlace(id: $id, label: "   ") { label } }`, { id: b.id }, { token }))).toEqual([
      "BAD_USER_INPUT",
    ]);
    expect(codes(await t.gql(`mutation ($id: ID!, $l: String!) { renamePlace(id: $id, label: $l) { label } }`, { id: b.id, l: "x".repeat(61) }, { token }))).toEqual([
      "BAD_USER_INPUT",
    ]);

    const REORDER = `mutation ($ids: [ID!]!) { reorderPlaces(ids: $ids) { id position } }`;
    const reordered = await t.gql(REORDER, { ids: [c.id, a.id, b.id] }, { token });
    expect(reordered.data!.reorderPlaces).toEqual([
      { id: c.id, position: 0 },
      { id: a.id, position: 1 },
      { id: b.id, position: 2 },
    ]);
    for (const ids of [[c.id, a.id], [c.id, a.id, a.id], [c.id, a.id, b.id, "nope"]]) {
      expect(codes(await t.gql(REORDER, { ids }, { token }))).toEqual(["BAD_USER_INPUT"]);
    }

    const removed = await t.gql(`mutation ($id: ID!) { removePlace(id: $id) }`, { id: a.id }, { token });
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

    expect((await t.gql(`query ($id: ID!) { place(id: $id) { id } }`, { id: place.id }, { token: mallory })).data!.place).toBeNull();
    expect((await t.gql(PLACES, {}, { token: mallory })).data!.places).toEqual([]);
    expect(codes(await t.gql(`mutation ($id: ID!) { renamePlace(id: $id, label: "Mine") { id } }`, { id: place.id }, { token: mallory }))).toEqual([
      "NOT_FOUND",
    ]);
    expect(codes(await t.gql(`mutation ($id: ID!) { removePlace(id: $id) }`, { id: place.id }, { token: mallory }))).toEqual(["NOT_FOUND"]);
    expect(codes(await t.gql(`mutation ($ids: [ID!]!) { reorderPlaces(ids: $ids) { id } }`, { ids: [place.id] }, { token: mallory }))).toEqual([
      "BAD_USER_INPUT",
    ]);
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

  it("returns nothing for a one-character search without asking upstream", async () => {
    const before = t.fake.calls.geocoding;
    expect((await t.gql(SEARCH, { q: "b" })).data!.searchLocations).toEqual([]);
    expect(t.fake.calls.geocoding).toBe(before);
  });
});
