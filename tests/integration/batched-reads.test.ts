import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import type { TypedDocumentNode } from "@urql/core";
import { print } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultSettings } from "~/api/db/settings-rows";
import { timeOrderedLowerBound } from "~/shared/live-cursor";
import { VIEWER_QUERY } from "~/lib/graphql/documents";
import { ALERT_RULES_QUERY, INBOX_PAGE_SIZE, INBOX_QUERY, PLACES_QUERY } from "~/lib/graphql/signed-in-documents";
import { timeOrderedId } from "~/api/db/ids.server";
import { inProcessQueryRunner } from "~/server/in-process-queries.server";
import { startTestApi, type TestApi } from "../support/api-server";
import {
  TestBatchedAddBeforeDocument as ADD_BEFORE,
  TestBatchedEveryRelationDocument as EVERY_RELATION,
  TestBatchedMeDocument as ME,
  TestBatchedMessagePlaceDocument as MESSAGE_PLACE,
  TestBatchedRenameAfterDocument as RENAME_AFTER,
  TestBatchedRenameBetweenReadsDocument as RENAME_BETWEEN_READS,
  type TestBatchedEveryRelationQuery,
  type TestBatchedMessagePlaceSubscription,
} from "../support/documents.generated";
import { wsClient } from "../support/subscriber";

/**
 * Per-item relations (a message's place, a rule's state, a briefing's places, ...) are read
 * in one statement per relation and request, whatever the number of items: the SQL a page
 * costs must not grow with the account. Statements are counted per request: the async
 * context a request runs in collects what it prepares, so the inbox follower's polls and
 * other requests never count.
 */
const requestStatements = new AsyncLocalStorage<string[]>();

let t: TestApi;
beforeAll(async () => {
  t = await startTestApi({ onStatement: (sql) => requestStatements.getStore()?.push(sql) });
});
afterAll(() => t.close());

/**
 * Runs `work` for the user of `token` and returns the SQL statements it ran. The session is
 * looked up first: whether it is still in memory depends on what other tests wrote.
 */
async function statementsOf(token: string, work: () => Promise<unknown>): Promise<string[]> {
  await run(token, ME);
  const statements: string[] = [];
  await requestStatements.run(statements, work);
  return [...statements];
}

/** Each kind of statement (an `in (...)` list of any length is one kind) with how often it ran. */
function byKind(statements: string[]): Record<string, number> {
  const kinds: Record<string, number> = {};
  for (const sql of statements) {
    // PostgreSQL numbers its parameters ($1, $2, …), SQLite does not (?): one kind on either.
    const kind = sql.replace(/\$\d+/g, "?").replace(/\(\?(?:, \?)*\)/g, "(?…)");
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  }
  return kinds;
}

type Result<R> = { data?: R | null; errors?: unknown[] };

/**
 * An operation as the app's loaders send it: in process, straight to the API (see inProcessQueryRunner). Typed
 * documents only (the app's, or batched-reads.graphql's), printed as the app prints them: the statements counted
 * are those of these exact selections.
 */
async function run<R, V extends Record<string, unknown>>(
  token: string,
  document: TypedDocumentNode<R, V>,
  variables: V = {} as V,
): Promise<Result<R>> {
  const runQuery = inProcessQueryRunner(t.api, "127.0.0.1", randomUUID(), (fields) => {
    throw fields.err;
  });
  const result = (await runQuery({
    query: print(document),
    variables,
    operationName: undefined,
    headers: { authorization: `Bearer ${token}` },
  })) as Result<R>;
  expect(result.errors).toBeUndefined();
  return result;
}

/** What the home route's loader runs for a signed-in user (app/routes/home.tsx: loadHome). */
async function loadHome(token: string) {
  const viewer = await run(token, VIEWER_QUERY);
  const [places, inbox, rules] = await Promise.all([run(token, PLACES_QUERY), run(token, INBOX_QUERY, {}), run(token, ALERT_RULES_QUERY)]);
  return { viewer: viewer.data!, places: places.data!, inbox: inbox.data!, rules: rules.data! };
}

const FUTURE = "2099-01-01T00:00:00.000Z";
const HOUR = 3_600_000;

/**
 * A user with `places` places, a rule per place (every other one for all places; some
 * snoozed, some triggered), a briefing per two places, and `messages` messages: briefings,
 * alerts with their rule, place and match, all-clears and notes from the system.
 */
async function accountWith(places: number, messages: number) {
  const token = await t.signUp();
  const userId = (await run(token, ME)).data!.me!.id;
  const db = t.api.services.db;
  const created = new Date(Date.now() - 10 * 24 * HOUR);
  const at = (hours: number) => new Date(created.getTime() + hours * HOUR).toISOString();
  const placeRows = Array.from({ length: places }, (_, i) => ({
    id: randomUUID(),
    user_id: userId,
    label: `Place ${i}`,
    name: `Town ${i}`,
    admin1: null,
    country_code: "DE",
    latitude: 40 + i * 0.5,
    longitude: 5 + i * 0.5,
    time_zone: "Europe/Berlin",
    position: i,
    created_at: at(0),
  }));
  await db.insertInto("places").values(placeRows).execute();
  const rules = placeRows.map((place, i) => ({
    id: randomUUID(),
    user_id: userId,
    name: `Rule ${i}`,
    enabled: 1,
    place_id: i % 2 === 0 ? place.id : null,
    metric: "WIND_GUSTS",
    comparator: "AT_LEAST",
    threshold: 60,
    conditions: null,
    lookahead_hours: 24,
    active_days: "MON,TUE,WED,THU,FRI,SAT,SUN",
    active_from: null,
    active_to: null,
    urgent: 0,
    notify_all_clear: 1,
    cooldown_hours: 6,
    snoozed_until: i % 5 === 4 ? FUTURE : null,
    created_at: at(i),
  }));
  await db.insertInto("alert_rules").values(rules).execute();
  const states = rules.flatMap((rule, i) =>
    (rule.place_id ? [rule.place_id] : [placeRows[0]!.id, placeRows[1]!.id]).map((placeId, j) => ({
      rule_id: rule.id,
      place_id: placeId,
      state: (i + j) % 3 === 0 ? "TRIGGERED" : "ARMED",
      episode_start: null,
      last_triggered_at: (i + j) % 2 === 0 ? at(24 + i + j) : null,
    })),
  );
  await db.insertInto("alert_states").values(states).execute();
  const briefings = Array.from({ length: Math.ceil(places / 2) }, (_, i) => ({
    id: randomUUID(),
    user_id: userId,
    name: `Briefing ${i}`,
    enabled: 1,
    period: "TODAY",
    time: "07:00",
    days: "MON,TUE,WED,THU,FRI,SAT,SUN",
    next_run_at: FUTURE,
    last_sent_at: null,
    created_at: at(i),
    delivery: "PUSH",
  }));
  await db.insertInto("briefings").values(briefings).execute();
  await db
    .insertInto("briefing_places")
    .values(
      briefings.flatMap((briefing, i) => [
        { briefing_id: briefing.id, place_id: placeRows[2 * i]!.id, position: 0 },
        { briefing_id: briefing.id, place_id: placeRows[(2 * i + 1) % places]!.id, position: 1 },
      ]),
    )
    .execute();
  const messageRows = Array.from({ length: messages }, (_, i) => {
    const place = placeRows[i % places]!;
    const rule = rules[i % places]!;
    const kind = (["BRIEFING", "ALERT", "ALL_CLEAR", "SYSTEM"] as const)[i % 4]!;
    const alerting = kind === "ALERT" || kind === "ALL_CLEAR";
    const from = Math.floor(Date.parse(at(48 + i)) / 1000);
    return {
      // Message ids are time-ordered (the live follower reads by them), as every write path makes them.
      id: timeOrderedId(),
      user_id: userId,
      kind,
      title: `${kind} ${i}`,
      body: "…",
      created_at: at(48 + i),
      read_at: i % 3 === 0 ? at(49 + i) : null,
      urgent: 0,
      place_id: kind === "SYSTEM" ? null : place.id,
      briefing_id: kind === "BRIEFING" ? briefings[i % briefings.length]!.id : null,
      dedupe_key: `batched-reads:${userId}:${i}`,
      alert_rule_id: alerting ? rule.id : null,
      match_json:
        kind === "ALERT" ? JSON.stringify({ from, to: from + 3 * 3600, peakAt: from + 3600, peakValue: 70, placeId: place.id }) : null,
    };
  });
  await db.insertInto("messages").values(messageRows).execute();
  await db
    .insertInto("settings")
    .values(defaultSettings(userId, "EN_US", "UTC"))
    .onConflict((c) => c.doNothing())
    .execute();
  // The forecast service reads its cache for all places at once; warmed here, so that its
  // write-behind (a second later) cannot land inside a request that is being counted.
  await Promise.all(placeRows.map((place) => t.api.services.forecasts.get(place)));
  await t.api.services.forecasts.flushStores();
  return { token, userId };
}

describe("batched reads", () => {
  let small: Awaited<ReturnType<typeof accountWith>>;
  let large: Awaited<ReturnType<typeof accountWith>>;
  beforeAll(async () => {
    small = await accountWith(10, 30);
    large = await accountWith(20, 60);
  });

  it("runs as many statements for the home page with 20 places and 60 messages as with 10 and 30", async () => {
    let home: Awaited<ReturnType<typeof loadHome>> | undefined;
    const few = await statementsOf(small.token, async () => (home = await loadHome(small.token)));
    expect(home!.places.me!.places).toHaveLength(10);
    expect(home!.inbox.messages.edges).toHaveLength(INBOX_PAGE_SIZE);
    expect(home!.rules.alertRules).toHaveLength(10);
    expect(home!.rules.alertRules.filter((rule) => rule.place)).toHaveLength(5);
    expect(new Set(home!.rules.alertRules.map((rule) => rule.state))).toEqual(new Set(["ARMED", "TRIGGERED", "SNOOZED"]));

    const many = await statementsOf(large.token, async () => (home = await loadHome(large.token)));
    expect(home!.places.me!.places).toHaveLength(20);
    expect(home!.rules.alertRules).toHaveLength(20);

    expect(byKind(many)).toEqual(byKind(few));
    expect(many.length).toBe(few.length);
  });

  it("reads every per-item relation of a list in one statement, whatever the list's length", async () => {
    let result: Result<TestBatchedEveryRelationQuery> | undefined;
    const few = await statementsOf(small.token, async () => (result = await run(small.token, EVERY_RELATION, { first: 100 })));
    const edges = result!.data!.messages.edges;
    expect(edges).toHaveLength(30);
    // Each relation resolved for the items that have one, so each was asked for.
    expect(edges.filter((edge) => edge.kind === "BRIEFING").every((edge) => edge.briefing!.places.length === 2)).toBe(true);
    expect(edges.filter((edge) => edge.kind === "ALERT").every((edge) => edge.alertRule && edge.match!.place!.id === edge.place!.id)).toBe(
      true,
    );
    expect(edges.every((edge) => edge.recipient.id === small.userId && edge.recipient.places.length === 10)).toBe(true);
    expect(edges.filter((edge) => edge.kind === "SYSTEM").every((edge) => edge.place === null)).toBe(true);
    expect(result!.data!.briefings.every((briefing) => briefing.places.length === 2)).toBe(true);

    const many = await statementsOf(large.token, async () => (result = await run(large.token, EVERY_RELATION, { first: 100 })));
    expect(result!.data!.messages.edges).toHaveLength(60);

    expect(byKind(many)).toEqual(byKind(few));
    expect(many.length).toBe(few.length);
  });

  it("never gives a user another user's rows through a relation", async () => {
    const other = await accountWith(2, 4);
    const [place] = await t.api.services.db.selectFrom("places").selectAll().where("user_id", "=", small.userId).limit(1).execute();
    const [rule] = await t.api.services.db.selectFrom("alert_rules").selectAll().where("user_id", "=", small.userId).limit(1).execute();
    const [briefing] = await t.api.services.db.selectFrom("briefings").selectAll().where("user_id", "=", small.userId).limit(1).execute();
    // A message of `other` that names the first user's place, rule and briefing (as no write path
    // of the API allows): each relation answers null rather than leak them.
    await t.api.services.db
      .insertInto("messages")
      .values({
        id: timeOrderedId(),
        user_id: other.userId,
        kind: "ALERT",
        title: "Foreign",
        body: "…",
        created_at: new Date(Date.now() + HOUR).toISOString(),
        read_at: null,
        urgent: 0,
        place_id: place!.id,
        briefing_id: briefing!.id,
        dedupe_key: `batched-reads:foreign`,
        alert_rule_id: rule!.id,
        match_json: JSON.stringify({ from: 0, to: 3600, peakAt: 0, peakValue: 70, placeId: place!.id }),
      })
      .execute();
    const result = await run(other.token, EVERY_RELATION, { first: 100 });
    const edges = result.data!.messages.edges;
    const foreign = edges.find((edge) => edge.kind === "ALERT" && edge.place === null)!;
    expect(foreign).toMatchObject({ place: null, briefing: null, alertRule: null, match: null });
    // The same request still resolves the user's own relations.
    expect(edges.filter((edge) => edge !== foreign && edge.kind === "ALERT").every((edge) => edge.place && edge.alertRule)).toBe(true);
  });

  it("reads a relation again after a mutation of the same request changed it", async () => {
    const [message] = await t.api.services.db
      .selectFrom("messages")
      .select(["id", "place_id"])
      .where("user_id", "=", small.userId)
      .where("kind", "=", "ALERT")
      .limit(1)
      .execute();
    const result = await run(small.token, RENAME_BETWEEN_READS, { message: message!.id, place: message!.place_id! });
    expect(result.data!.before[0]!.place!.label).not.toBe("Renamed in between");
    expect(result.data!.after[0]!.place!.label).toBe("Renamed in between");
  });

  it("reads a relation again for each event of a subscription, whose context lives as long as it", async () => {
    const token = await t.signUp();
    const userId = (await run(token, ME)).data!.me!.id;
    const { addPlace } = (await run(token, ADD_BEFORE)).data!;
    const client = wsClient(t.url, token);
    // graphql-ws takes the text: the typed document printed, its result read with the document's type.
    const events = client.iterate<TestBatchedMessagePlaceSubscription>({
      query: print(MESSAGE_PLACE),
      // Messages written from now on, also those written before the subscription is in place.
      variables: { after: timeOrderedLowerBound(Date.now()) },
    });
    const write = async (title: string) => {
      const row = await t.api.services.inbox.write({ userId, kind: "SYSTEM", title, body: "…", placeId: addPlace.id, dedupeKey: title });
      t.api.services.inbox.publish(row!);
    };
    try {
      await write("first");
      expect((await events.next()).value.data.messageReceived.place).toEqual({ label: "Before" });
      await run(token, RENAME_AFTER, { id: addPlace.id });
      await write("second");
      expect((await events.next()).value.data.messageReceived.place).toEqual({ label: "After" });
    } finally {
      await events.return?.();
      await client.dispose();
    }
  });
});
