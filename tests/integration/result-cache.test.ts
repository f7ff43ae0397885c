import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import type { TypedDocumentNode } from "@urql/core";
import { print } from "graphql";
import { describe, expect, it, vi } from "vitest";
import type { SchemaExtension } from "~/api/schema/index.server";
import { LogOutDocument as LOG_OUT } from "~/lib/account-documents.generated";
import { VIEWER_QUERY } from "~/lib/graphql/documents";
import { ALERT_RULES_QUERY, INBOX_QUERY, OPEN_PLACE_QUERY } from "~/lib/graphql/signed-in-documents";
import {
  ADD_PLACE_AT_MUTATION,
  BRIEFINGS_QUERY,
  SAVE_ALERT_RULE_MUTATION,
  SAVE_BRIEFING_MUTATION,
  SNOOZE_ALERT_RULE_MUTATION,
} from "~/lib/graphql/later-documents";
import { inProcessQueryRunner } from "~/server/in-process-queries.server";
import { codes, testApis, type TestApi } from "../support/api-server";
import {
  TestCacheAddPlaceDocument as ADD,
  TestCacheHomeDocument as HOME,
  TestCacheRenameFlatDocument as RENAME_FLAT,
  TestCacheRenameLoftDocument as RENAME_LOFT,
  TestCacheTooManyHoursDocument as TOO_MANY_HOURS,
  TestCacheVisitorDocument as VISITOR,
  TestCacheWeatherFreshnessDocument as WEATHER_FRESHNESS,
  type BriefingInput,
} from "../support/documents.generated";
import { wsClient } from "../support/subscriber";

const api = testApis();

// Typed documents (result-cache.graphql; the app's LogOut): answers read with their generated result types.

function manualClock(start = "2026-11-22T10:15:00Z") {
  let now = Date.parse(start);
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

/** How often the resolvers asked for place lists, that is, how often the query really ran. */
function countRuns(t: TestApi) {
  return vi.spyOn(t.api.services.placeLists, "get");
}

describe("cached answers", () => {
  it("answers a repeated query from memory, byte for byte, and only for the user who asked", async () => {
    // A still clock: the answer, with the weather's current hour, is cached until the hour turns, which must not happen between the asks.
    const t = await api({ now: manualClock().now });
    const alice = await t.signUp();
    const bob = await t.signUp();
    await t.gql(ADD, { label: "Alice's", lat: 47.37 }, { token: alice });
    await t.gql(ADD, { label: "Bob's", lat: 48.1 }, { token: bob });
    const runs = countRuns(t);
    const first = await t.gql(HOME, {}, { token: alice });
    const again = await t.gql(HOME, {}, { token: alice });
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
    expect(first.data!.me!.places).toHaveLength(1);
    expect(runs).toHaveBeenCalledTimes(1);

    const bobs = await t.gql(HOME, {}, { token: bob });
    expect(bobs.data!.me!.places.map((place) => place.label)).toEqual(["Bob's"]);
    expect(runs).toHaveBeenCalledTimes(2);
  });

  it("answers the home's open place from memory like the list, for its owner only, until the place changes", async () => {
    const t = await api({ now: manualClock().now }); // the hour must not turn between the asks (above)
    const alice = await t.signUp();
    const bob = await t.signUp();
    const id = (await t.gql(ADD, { label: "Home", lat: 47.37 }, { token: alice })).data!.addPlace.id;
    const runs = countRuns(t);
    const first = await t.gql(OPEN_PLACE_QUERY, { id }, { token: alice });
    const again = await t.gql(OPEN_PLACE_QUERY, { id }, { token: alice });
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
    expect(first.data!.place!.weather.hourly).toHaveLength(24);
    expect(runs).toHaveBeenCalledTimes(1);
    // Someone else's place answers as a missing one.
    expect((await t.gql(OPEN_PLACE_QUERY, { id }, { token: bob })).data!.place).toBeNull();
    await t.gql(RENAME_FLAT, { id }, { token: alice });
    expect((await t.gql(OPEN_PLACE_QUERY, { id }, { token: alice })).data!.place!.label).toBe("Flat");
  });

  it("gives a cached answer over WebSocket too", async () => {
    const t = await api({ now: manualClock().now }); // the hour must not turn between the asks (above)
    const token = await t.signUp();
    await t.gql(ADD, { label: "Home", lat: 47.37 }, { token });
    const runs = countRuns(t);
    const overHttp = await t.gql(HOME, {}, { token });
    const client = wsClient(t.url, token);
    try {
      const overWebSocket = await new Promise((resolve, reject) => {
        let result: unknown;
        // graphql-ws takes the text: the typed document printed, as the HTTP helper sends it.
        client.subscribe({ query: print(HOME) }, { next: (value) => (result = value), error: reject, complete: () => resolve(result) });
      });
      expect(overWebSocket).toEqual({ data: overHttp.data });
      expect(runs).toHaveBeenCalledTimes(1);
    } finally {
      await client.dispose();
    }
  });

  it("runs the query again after any write to what it read, by this process or another one", async () => {
    const here = await api();
    const there = await api({ dataDir: here.dataDir, databaseUrl: here.databaseUrl, fake: here.fake });
    const token = await here.signUp();
    const id = (await here.gql(ADD, { label: "Home", lat: 47.37 }, { token })).data!.addPlace.id;
    const labels = async () => (await here.gql(HOME, {}, { token })).data!.me!.places.map((place) => place.label);
    expect(await labels()).toEqual(["Home"]);

    await here.gql(RENAME_FLAT, { id }, { token });
    expect(await labels()).toEqual(["Flat"]);
    await there.gql(RENAME_LOFT, { id }, { token });
    expect(await labels()).toEqual(["Loft"]);
    await there.gql(ADD, { label: "Office", lat: 48.1 }, { token });
    expect(await labels()).toEqual(["Loft", "Office"]);

    await there.gql(LOG_OUT, {}, { token });
    const afterLogOut = await here.gql(HOME, {}, { token });
    expect(afterLogOut.data!.me).toBeNull();
  });

  it("runs it again when a forecast it used is due for refreshing, and when the hour changes", async () => {
    const clock = manualClock("2026-11-22T10:50:00Z");
    const t = await api({ now: clock.now });
    const token = await t.signUp();
    await t.gql(ADD, { label: "Home", lat: 47.37 }, { token });
    const home = async () => (await t.gql(HOME, {}, { token })).data!.me!.places[0]!.weather;
    const first = await home();
    expect(first.hourly[0]!.time).toBe("2026-11-22T10:00:00.000Z");
    const upstream = t.fake.calls.forecast;

    clock.advance(9 * 60_000); // 10:59: the same hour, the forecast still fresh
    expect(await home()).toEqual(first);
    clock.advance(60_000); // 11:00: a new hour; the forecast (fetched at 10:50) is still fresh
    const nextHour = await home();
    expect(nextHour.hourly[0]!.time).toBe("2026-11-22T11:00:00.000Z");
    expect(nextHour.fetchedAt).toBe(first.fetchedAt);
    expect(t.fake.calls.forecast).toBe(upstream);

    clock.advance(6 * 60_000); // 11:06: 16 minutes after the fetch, past the 15 minutes of freshness
    const refreshed = await home();
    expect(refreshed.fetchedAt).toBe("2026-11-22T11:06:00.000Z");
    expect(t.fake.calls.forecast).toBe(upstream + 1);
  });

  it("caches no answer that is one-off: other fields, errors, stale forecasts, signed-out visitors", async () => {
    const clock = manualClock();
    // A resolver not declared cacheable (this one could read anything) makes the answer it is part of one-off.
    const undeclared: SchemaExtension = {
      typeDefs: `extend type Query { oneOffProbe: Int! }`,
      resolvers: { Query: { oneOffProbe: () => 1 } },
    };
    const t = await api({ now: clock.now, schemaExtensions: [undeclared] });
    const token = await t.signUp();
    await t.gql(ADD, { label: "Home", lat: 47.37 }, { token });
    const runs = countRuns(t);

    await t.gql(`{ oneOffProbe me { places { label } } }`, {}, { token });
    await t.gql(`{ oneOffProbe me { places { label } } }`, {}, { token });
    expect(runs).toHaveBeenCalledTimes(2);

    expect(codes(await t.gql(TOO_MANY_HOURS, {}, { token }))).toEqual(["BAD_USER_INPUT"]);
    expect(codes(await t.gql(TOO_MANY_HOURS, {}, { token }))).toEqual(["BAD_USER_INPUT"]);
    expect(runs).toHaveBeenCalledTimes(4);

    // A failing provider gives the last known forecast, marked stale: not cached, so the
    // next request, with the provider back, gets a fresh one.
    expect((await t.gql(WEATHER_FRESHNESS, {}, { token })).data!.me!.places[0]!.weather.stale).toBe(false);
    clock.advance(20 * 60_000);
    t.fake.failNext(500, 3);
    expect((await t.gql(WEATHER_FRESHNESS, {}, { token })).data!.me!.places[0]!.weather).toEqual({
      stale: true,
      fetchedAt: "2026-11-22T10:15:00.000Z",
    });
    expect((await t.gql(WEATHER_FRESHNESS, {}, { token })).data!.me!.places[0]!.weather).toEqual({
      stale: false,
      fetchedAt: "2026-11-22T10:35:00.000Z",
    });
    expect(runs).toHaveBeenCalledTimes(7);

    // Signed-out lookups always run: each one counts against the address's limit.
    const lookups = vi.spyOn(t.api.services.forecasts, "get");
    for (let i = 0; i < 2; i++) expect((await t.gql(VISITOR)).data!.weatherAt.id).toBe("at:47.37,8.54");
    expect(lookups).toHaveBeenCalledTimes(2);
  });

  it("caches the pages' viewer, inbox, rules and briefings whole, as fresh as running them: a write or a snooze's end drops them", async () => {
    const clock = manualClock();
    // Counted per request: the pages' reads run in the async context they are given, while the inbox's and sessions'
    // followers look at the database on their own every few hundred milliseconds.
    const pageStatements = new AsyncLocalStorage<string[]>();
    const t = await api({ now: clock.now, onStatement: (sql) => pageStatements.getStore()?.push(sql) });
    const token = await t.signUp();
    const placeId = (await t.gql(ADD_PLACE_AT_MUTATION, { latitude: 47.37, longitude: 8.54, label: "Home" }, { token })).data!.addPlace.id;
    const input = { name: "Gale", placeId, metric: "WIND_GUSTS", comparator: "AT_LEAST", threshold: 60 } as const;
    const ruleId = (await t.gql(SAVE_ALERT_RULE_MUTATION, { input }, { token })).data!.saveAlertRule.id;
    const briefing: BriefingInput = { name: "Morning", placeIds: [placeId], period: "TODAY", time: "07:00", days: ["MON", "FRI"] };
    expect((await t.gql(SAVE_BRIEFING_MUTATION, { input: briefing }, { token })).errors).toBeUndefined();
    // The page's reads as its loaders make them: on the API's in-process runner, one request for the page.
    const page = async () => {
      const runQuery = inProcessQueryRunner(t.api, "127.0.0.1", randomUUID(), (fields) => {
        throw fields.err;
      });
      const run = async <R>(document: TypedDocumentNode<R, Record<string, never>>) => {
        const headers = { authorization: `Bearer ${token}` };
        const result = await runQuery({ query: print(document), variables: {}, operationName: undefined, headers });
        expect(result.errors).toBeUndefined();
        return result.data as R;
      };
      const [viewer, inbox, rules, briefings] = await Promise.all([
        run(VIEWER_QUERY),
        run(INBOX_QUERY),
        run(ALERT_RULES_QUERY),
        run(BRIEFINGS_QUERY),
      ]);
      return { viewer, inbox, rules, briefings };
    };

    const first = await page();
    expect(first.briefings.briefings.map((kept) => kept.places.map((place) => place.label))).toEqual([["Home"]]);
    const statements: string[] = [];
    expect(await pageStatements.run(statements, page)).toEqual(first);
    // Cached: answered without a statement (the sessions are known by then).
    expect(statements).toEqual([]);
    // The count sees a page's reads when they run.
    await t.gql(SAVE_ALERT_RULE_MUTATION, { id: ruleId, input }, { token });
    await pageStatements.run(statements, page);
    expect(statements.length).toBeGreaterThan(0);

    // A rule snoozed for an hour is SNOOZED while the snooze lasts, and ARMED once it ends, cached or not.
    const until = new Date(clock.now().getTime() + 3_600_000).toISOString();
    await t.gql(SNOOZE_ALERT_RULE_MUTATION, { id: ruleId, until }, { token });
    const snoozed = (await page()).rules.alertRules[0]!;
    expect([snoozed.state, snoozed.snoozedUntil]).toEqual(["SNOOZED", until]);
    expect((await page()).rules.alertRules[0]!.state).toBe("SNOOZED");
    clock.advance(3_600_000 + 1);
    expect((await page()).rules.alertRules[0]!.state).toBe("ARMED");

    // A renamed rule shows renamed at once.
    await t.gql(SAVE_ALERT_RULE_MUTATION, { id: ruleId, input: { ...input, name: "Storm" } }, { token });
    expect((await page()).rules.alertRules.map((rule) => rule.name)).toEqual(["Storm"]);
  });
});
