import { Client, fetchExchange, type AnyVariables, type TypedDocumentNode } from "@urql/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCacheExchange } from "~/lib/graphql/cache";
import { DELETE_MESSAGE_MUTATION, MARK_READ_MUTATION } from "~/lib/graphql/signed-in-documents";
import {
  ADD_ALERT_RULES_MUTATION,
  PLACE_DAY_QUERY,
  DELETE_ALERT_RULE_MUTATION,
  DELETE_BRIEFING_MUTATION,
  REMOVE_PLACE_MUTATION,
  SETTINGS_QUERY,
  UPDATE_SETTINGS_MUTATION,
} from "~/lib/graphql/later-documents";
import { starterRuleInput } from "~/lib/starter-rules";
import { startTestApi, type TestApi } from "../support/api-server";
import {
  TestGcAddPlaceDocument as ADD_PLACE,
  TestGcBriefingPlacesDocument as BRIEFING_PLACES,
  TestGcBriefingsDocument as BRIEFINGS,
  TestGcInboxDocument as INBOX,
  TestGcMarkAllReadDocument as MARK_ALL_READ,
  TestGcNextRunsDocument as NEXT_RUNS,
  TestGcPlacesDocument as PLACES,
  TestGcRenameHomeDocument as RENAME_HOME,
  TestGcReorderPlacesDocument as REORDER_PLACES,
  TestGcRestoreMessageDocument as RESTORE_MESSAGE,
  TestGcRestorePlaceDocument as RESTORE_PLACE,
  TestGcRulesDocument as RULES,
  TestGcRulesListDocument as RULES_LIST,
  TestGcSaveBothDocument as SAVE_BOTH,
  TestGcSaveHeatRuleDocument as SAVE_HEAT_RULE,
  TestGcSaveMorningDocument as SAVE_MORNING,
  TestGcSaveWindRuleDocument as SAVE_WIND_RULE,
  TestGcSaveZonedDocument as SAVE_ZONED,
  TestGcSendBriefingNowDocument as SEND_BRIEFING_NOW,
} from "../support/documents.generated";

/**
 * The app's graphcache configuration against the real API: after each mutation the
 * cached lists are right straight from the cache (cache-only reads), with no refetch.
 */
let t: TestApi;
let token: string;
let client: Client;
let requests = 0;

beforeAll(async () => {
  t = await startTestApi();
  token = await t.signUp();
  client = new Client({
    url: t.url,
    exchanges: [createCacheExchange(), fetchExchange],
    preferGetMethod: false,
    fetch: (input, init) => {
      requests++;
      return fetch(input, init);
    },
    fetchOptions: { headers: { authorization: `Bearer ${token}` } },
  });
});
afterAll(() => t.close());

// Typed documents (graphcache.graphql; the app's own where the test sends what the app sends): the cached answers
// are read with their generated result types.
const cached = <R, V extends AnyVariables>(query: TypedDocumentNode<R, V>, variables = {} as V) => {
  const result = client.readQuery(query, variables, { requestPolicy: "cache-only" });
  return result?.data ?? null;
};

async function mutate<R, V extends AnyVariables>(query: TypedDocumentNode<R, V>, variables = {} as V) {
  const result = await client.mutation(query, variables).toPromise();
  if (result.error) throw result.error;
  return result.data!;
}

describe("graphcache updates", () => {
  it("keeps place lists right after add, rename, reorder and remove, without refetching", async () => {
    await client.query(PLACES, {}).toPromise();
    const afterFirstQuery = requests;
    const added: string[] = [];
    for (const lat of [10, 20, 30]) {
      const data = await mutate(ADD_PLACE, { lat, label: `P${lat}` });
      added.push(data.addPlace.id);
    }
    let places = cached(PLACES)!;
    expect(places.places.map((p) => p.label)).toEqual(["P10", "P20", "P30"]);
    expect(places.me!.places.map((p) => p.id)).toEqual(added);

    await mutate(RENAME_HOME, { id: added[0]! });
    await mutate(REORDER_PLACES, { ids: [added[2]!, added[0]!, added[1]!] });
    await mutate(REMOVE_PLACE_MUTATION, { id: added[1]! });
    places = cached(PLACES)!;
    expect(places.places.map((p) => p.label)).toEqual(["P30", "Home"]);
    expect(places.me!.places.map((p) => p.id)).toEqual([added[2], added[0]]);
    // Only the mutations went out: the lists were never refetched.
    expect(requests - afterFirstQuery).toBe(6);
  });

  it("adds and removes briefings in the cached list", async () => {
    await client.query(BRIEFINGS, {}).toPromise();
    const placeId = cached(PLACES)!.places[0]!.id;
    const saved = await mutate(SAVE_MORNING, { placeId });
    expect(cached(BRIEFINGS)!.briefings.map((b) => b.name)).toEqual(["Morning"]);

    // "Send now" lands at the top of the cached inbox and counts as unread, once.
    await client.query(INBOX, {}).toPromise();
    await mutate(SEND_BRIEFING_NOW, { id: saved.saveBriefing.id });
    const inbox = cached(INBOX)!;
    expect(inbox.messages.edges.map((m) => m.title)).toEqual(["Morning · Today"]);
    expect(inbox.me!.unreadCount).toBe(1);

    // Mark one read, delete one unread: the count follows without a refetch.
    const briefingId = saved.saveBriefing.id;
    const second = await mutate(SEND_BRIEFING_NOW, { id: briefingId });
    const third = await mutate(SEND_BRIEFING_NOW, { id: briefingId });
    expect(cached(INBOX)!.me!.unreadCount).toBe(3);
    const requestsBefore = requests;
    const marked = await client.mutation(MARK_READ_MUTATION, { ids: [second.sendBriefingNow.id] }).toPromise();
    expect(marked.error).toBeUndefined();
    expect(cached(INBOX)!.me!.unreadCount).toBe(2);
    await mutate(DELETE_MESSAGE_MUTATION, { id: third.sendBriefingNow.id });
    const afterDelete = cached(INBOX)!;
    expect(afterDelete.me!.unreadCount).toBe(1);
    expect(afterDelete.messages.edges.map((m) => m.id)).not.toContain(third.sendBriefingNow.id);
    expect(requests - requestsBefore).toBe(2); // the two mutations, nothing refetched

    // Undo of the delete: back in its place and unread again, still without a refetch.
    await mutate(RESTORE_MESSAGE, { id: third.sendBriefingNow.id });
    const afterRestore = cached(INBOX)!;
    expect(afterRestore.messages.edges.map((m) => m.id)).toEqual([
      third.sendBriefingNow.id,
      second.sendBriefingNow.id,
      afterDelete.messages.edges[1]!.id,
    ]);
    expect(afterRestore.me!.unreadCount).toBe(2);
    expect(requests - requestsBefore).toBe(3);

    await mutate(MARK_ALL_READ);
    const read = cached(INBOX)!;
    expect(read.messages.edges.every((m) => m.readAt !== null)).toBe(true);
    expect(read.me!.unreadCount).toBe(0);

    await mutate(DELETE_BRIEFING_MUTATION, { id: saved.saveBriefing.id });
    expect(cached(BRIEFINGS)!.briefings).toEqual([]);
  });

  it("fetches the briefings' next runs again after a change of time zone", async () => {
    const placeId = cached(PLACES)!.places[0]!.id;
    await mutate(SAVE_ZONED, { placeId });
    await client.query(NEXT_RUNS, {}).toPromise();
    const before = cached(NEXT_RUNS)!.briefings.find((b) => b.name === "Zoned")!.nextRunAt;

    const zone = await client.mutation(UPDATE_SETTINGS_MUTATION, { input: { timeZone: "Asia/Tokyo" } }).toPromise();
    expect(zone.error).toBeUndefined();
    // The cached schedule is stale: the list is not served from the cache, and fetched again it is in the new zone.
    expect(cached(NEXT_RUNS)).toBeNull();
    const after = (await client.query(NEXT_RUNS, {}).toPromise()).data!.briefings.find((b) => b.name === "Zoned")!.nextRunAt!;
    expect(after).not.toBe(before);
    expect(new Date(after).toLocaleTimeString("en-GB", { timeZone: "Asia/Tokyo", hour: "2-digit", minute: "2-digit" })).toBe("07:00");
  });

  it("drops a removed place's rules and briefing slots, and puts a restored place back in its position", async () => {
    // One after the other: added at once, the cache lists them in the order the answers came, which
    // need not be the order the server gave them (and the restore below puts one back by the server's).
    const first = (await mutate(ADD_PLACE, { lat: 61, label: "R61" })).addPlace.id;
    const second = (await mutate(ADD_PLACE, { lat: 62, label: "R62" })).addPlace.id;
    await mutate(SAVE_WIND_RULE, { id: second });
    await mutate(SAVE_BOTH, { ids: [first, second] });
    await client.query(RULES, {}).toPromise();
    await client.query(BRIEFING_PLACES, {}).toPromise();
    const placeOrder = () => cached(PLACES)!.places.map((place) => place.id);
    const before = placeOrder();

    const requestsBefore = requests;
    await mutate(REMOVE_PLACE_MUTATION, { id: second });
    expect(cached(RULES)!.alertRules).toEqual([]);
    const briefing = cached(BRIEFING_PLACES)!.briefings.at(-1)!;
    expect(briefing.places.map((place) => place.id)).toEqual([first]);
    expect(requests - requestsBefore).toBe(1);

    await mutate(RESTORE_PLACE, { id: second });
    expect(placeOrder()).toEqual(before);
    // The rule list is stale now: it is fetched again, with the rule back.
    const rules = await client.query(RULES, {}).toPromise();
    expect(rules.data!.alertRules.map((rule) => rule.name)).toEqual(["Wind"]);
  });

  it("reads a place that is not the user's as the API answered it (null), without asking again", async () => {
    const other = await t.signUp();
    const added = await t.gql(ADD_PLACE, { lat: 63, label: "Theirs" }, { token: other });
    const variables = { id: added.data!.addPlace.id, date: "2026-11-28" };
    expect((await client.query(PLACE_DAY_QUERY, variables).toPromise()).data?.place).toBeNull();
    const requestsBefore = requests;
    // As a hydrating render reads it a second time, once the server's restored answer has been used.
    const again = await client.query(PLACE_DAY_QUERY, variables).toPromise();
    expect(again.data?.place).toBeNull();
    expect(again.operation.context.meta?.cacheOutcome).toBe("hit");
    expect(requests).toBe(requestsBefore);
  });

  it("answers a removed place's address null while it is gone, and with the place once it is restored", async () => {
    const id = (await mutate(ADD_PLACE, { lat: 64, label: "R64" })).addPlace.id;
    await mutate(REMOVE_PLACE_MUTATION, { id });
    const variables = { id, date: "2026-11-28" };
    expect((await client.query(PLACE_DAY_QUERY, variables).toPromise()).data?.place).toBeNull();
    await mutate(RESTORE_PLACE, { id });
    const restored = await client.query(PLACE_DAY_QUERY, variables).toPromise();
    expect(restored.data?.place?.label).toBe("R64");
  });

  it("adds the rules made together (the starter rules) to the cached list, in the order given, with one request", async () => {
    await client.query(RULES_LIST, {}).toPromise();
    const before = cached(RULES_LIST)!.alertRules.map((rule) => rule.id);
    const requestsBefore = requests;
    const { addAlertRules } = await mutate(ADD_ALERT_RULES_MUTATION, {
      inputs: [starterRuleInput("gusts", "Strong gusts"), starterRuleInput("frost", "Frost")],
    });
    expect(requests - requestsBefore).toBe(1);
    expect(cached(RULES_LIST)!.alertRules.map((rule) => rule.id)).toEqual([...before, ...addAlertRules.map((rule) => rule.id)]);
    expect(addAlertRules.map((rule) => rule.name)).toEqual(["Strong gusts", "Frost"]);
    for (const { id } of addAlertRules) await mutate(DELETE_ALERT_RULE_MUTATION, { id });
  });

  it("drops a deleted rule from the cached list, and merges saved settings into every cached view of them", async () => {
    await client.query(RULES_LIST, {}).toPromise();
    const kept = cached(RULES_LIST)!.alertRules.length;
    const saved = await mutate(SAVE_HEAT_RULE);
    expect(cached(RULES_LIST)!.alertRules).toHaveLength(kept + 1);

    await client.query(SETTINGS_QUERY, {}).toPromise();
    const requestsBefore = requests;
    await mutate(DELETE_ALERT_RULE_MUTATION, { id: saved.saveAlertRule.id });
    expect(cached(RULES_LIST)!.alertRules.map((rule) => rule.id)).not.toContain(saved.saveAlertRule.id);
    expect(cached(RULES_LIST)!.alertRules).toHaveLength(kept);

    const updated = await client.mutation(UPDATE_SETTINGS_MUTATION, { input: { temperatureUnit: "FAHRENHEIT", hour12: true } }).toPromise();
    expect(updated.error).toBeUndefined();
    const settings = client.readQuery(SETTINGS_QUERY, {}, { requestPolicy: "cache-only" })!.data!.me!.settings;
    expect(settings).toMatchObject({ temperatureUnit: "FAHRENHEIT", hour12: true });
    expect(requests - requestsBefore).toBe(2); // the two mutations, nothing refetched
  });
});
