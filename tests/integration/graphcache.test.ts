import { Client, fetchExchange, gql } from "@urql/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCacheExchange } from "~/lib/graphql/cache";
import { MARK_READ_MUTATION, SETTINGS_QUERY, UPDATE_SETTINGS_MUTATION } from "~/lib/graphql/documents";
import { startTestApi, type TestApi } from "../support/api-server";

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

const PLACES = gql`
  query Places {
    places {
      id
      label
      position
    }
    me {
      id
      places {
        id
        label
      }
      unreadCount
    }
  }
`;
const BRIEFINGS = gql`
  query Briefings {
    briefings {
      id
      name
    }
  }
`;
const INBOX = gql`
  query Inbox {
    messages(first: 10) {
      edges {
        id
        title
        readAt
      }
      hasMore
      endCursor
    }
    me {
      id
      unreadCount
    }
  }
`;
const cached = <T>(query: typeof PLACES, variables = {}) => {
  const result = client.readQuery<T>(query, variables, { requestPolicy: "cache-only" });
  return result?.data ?? null;
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped GraphQL result (string queries): callers name the shape they expect
async function mutate<T = any>(query: string, variables: Record<string, unknown> = {}) {
  const result = await client.mutation<T>(query, variables).toPromise();
  if (result.error) throw result.error;
  return result.data!;
}

describe("graphcache updates", () => {
  it("keeps place lists right after add, rename, reorder and remove, without refetching", async () => {
    await client.query(PLACES, {}).toPromise();
    const afterFirstQuery = requests;
    const added: string[] = [];
    for (const lat of [10, 20, 30]) {
      const data = await mutate<{ addPlace: { id: string } }>(
        `mutation ($lat: Float!) { addPlace(latitude: $lat, longitude: 5, label: "P${lat}") { id label position } }`,
        { lat },
      );
      added.push(data.addPlace.id);
    }
    let places = cached<{ places: Array<{ id: string; label: string }>; me: { places: Array<{ id: string }> } }>(PLACES)!;
    expect(places.places.map((p) => p.label)).toEqual(["P10", "P20", "P30"]);
    expect(places.me.places.map((p) => p.id)).toEqual(added);

    await mutate(`mutation ($id: ID!) { renamePlace(id: $id, label: "Home") { id label } }`, { id: added[0] });
    await mutate(`mutation ($ids: [ID!]!) { reorderPlaces(ids: $ids) { id position } }`, { ids: [added[2], added[0], added[1]] });
    await mutate(`mutation ($id: ID!) { removePlace(id: $id) }`, { id: added[1] });
    places = cached(PLACES)!;
    expect(places.places.map((p) => p.label)).toEqual(["P30", "Home"]);
    expect(places.me.places.map((p) => p.id)).toEqual([added[2], added[0]]);
    // Only the mutations went out: the lists were never refetched.
    expect(requests - afterFirstQuery).toBe(6);
  });

  it("adds and removes briefings in the cached list", async () => {
    await client.query(BRIEFINGS, {}).toPromise();
    const placeId = cached<{ places: Array<{ id: string }> }>(PLACES)!.places[0]!.id;
    const saved = await mutate<{ saveBriefing: { id: string } }>(
      `mutation ($placeId: ID!) { saveBriefing(input: { name: "Morning", placeIds: [$placeId], period: TODAY, time: "07:00", days: [MON] }) { id name } }`,
      { placeId },
    );
    expect(cached<{ briefings: Array<{ name: string }> }>(BRIEFINGS)!.briefings.map((b) => b.name)).toEqual(["Morning"]);

    // "Send now" lands at the top of the cached inbox and counts as unread, once.
    await client.query(INBOX, {}).toPromise();
    await mutate(`mutation ($id: ID!) { sendBriefingNow(id: $id) { id title readAt } }`, { id: saved.saveBriefing.id });
    const inbox = cached<{ messages: { edges: Array<{ title: string }> }; me: { unreadCount: number } }>(INBOX)!;
    expect(inbox.messages.edges.map((m) => m.title)).toEqual(["Morning · Today"]);
    expect(inbox.me.unreadCount).toBe(1);

    // Mark one read, delete one unread: the count follows without a refetch.
    const briefingId = saved.saveBriefing.id;
    const second = await mutate<{ sendBriefingNow: { id: string } }>(
      `mutation ($id: ID!) { sendBriefingNow(id: $id) { id title readAt } }`,
      { id: briefingId },
    );
    const third = await mutate<{ sendBriefingNow: { id: string } }>(
      `mutation ($id: ID!) { sendBriefingNow(id: $id) { id title readAt } }`,
      { id: briefingId },
    );
    expect(cached<{ me: { unreadCount: number } }>(INBOX)!.me.unreadCount).toBe(3);
    const requestsBefore = requests;
    const marked = await client.mutation(MARK_READ_MUTATION, { ids: [second.sendBriefingNow.id] }).toPromise();
    expect(marked.error).toBeUndefined();
    expect(cached<{ me: { unreadCount: number } }>(INBOX)!.me.unreadCount).toBe(2);
    await mutate(`mutation ($id: ID!) { deleteMessage(id: $id) }`, { id: third.sendBriefingNow.id });
    const afterDelete = cached<{ messages: { edges: Array<{ id: string }> }; me: { unreadCount: number } }>(INBOX)!;
    expect(afterDelete.me.unreadCount).toBe(1);
    expect(afterDelete.messages.edges.map((m) => m.id)).not.toContain(third.sendBriefingNow.id);
    expect(requests - requestsBefore).toBe(2); // the two mutations, nothing refetched

    // Undo of the delete: back in its place and unread again, still without a refetch.
    await mutate(`mutation ($id: ID!) { restoreMessage(id: $id) { id title readAt createdAt } }`, { id: third.sendBriefingNow.id });
    const afterRestore = cached<{ messages: { edges: Array<{ id: string }> }; me: { unreadCount: number } }>(INBOX)!;
    expect(afterRestore.messages.edges.map((m) => m.id)).toEqual([
      third.sendBriefingNow.id,
      second.sendBriefingNow.id,
      afterDelete.messages.edges[1]!.id,
    ]);
    expect(afterRestore.me.unreadCount).toBe(2);
    expect(requests - requestsBefore).toBe(3);

    await mutate(`mutation { markAllRead { id } }`);
    const read = cached<{ messages: { edges: Array<{ readAt: string | null }> }; me: { unreadCount: number } }>(INBOX)!;
    expect(read.messages.edges.every((m) => m.readAt !== null)).toBe(true);
    expect(read.me.unreadCount).toBe(0);

    await mutate(`mutation ($id: ID!) { deleteBriefing(id: $id) }`, { id: saved.saveBriefing.id });
    expect(cached<{ briefings: unknown[] }>(BRIEFINGS)!.briefings).toEqual([]);
  });

  it("fetches the briefings' next runs again after a change of time zone", async () => {
    const NEXT_RUNS = gql`
      query NextRuns {
        briefings {
          id
          name
          nextRunAt
        }
      }
    `;
    const placeId = cached<{ places: Array<{ id: string }> }>(PLACES)!.places[0]!.id;
    await mutate(
      `mutation ($placeId: ID!) { saveBriefing(input: { name: "Zoned", placeIds: [$placeId], period: TODAY, time: "07:00", days: [MON, TUE, WED, THU, FRI, SAT, SUN] }) { id name nextRunAt } }`,
      { placeId },
    );
    await client.query(NEXT_RUNS, {}).toPromise();
    const before = cached<{ briefings: Array<{ name: string; nextRunAt: string }> }>(NEXT_RUNS)!.briefings.find(
      (b) => b.name === "Zoned",
    )!.nextRunAt;

    const zone = await client.mutation(UPDATE_SETTINGS_MUTATION, { input: { timeZone: "Asia/Tokyo" } }).toPromise();
    expect(zone.error).toBeUndefined();
    // The cached schedule is stale: the list is not served from the cache, and fetched again it is in the new zone.
    expect(cached(NEXT_RUNS)).toBeNull();
    const after = (await client.query(NEXT_RUNS, {}).toPromise()).data!.briefings.find((b: { name: string }) => b.name === "Zoned")!
      .nextRunAt as string;
    expect(after).not.toBe(before);
    expect(new Date(after).toLocaleTimeString("en-GB", { timeZone: "Asia/Tokyo", hour: "2-digit", minute: "2-digit" })).toBe("07:00");
  });

  it("drops a removed place's rules and briefing slots, and puts a restored place back in its position", async () => {
    const placeIds = await Promise.all(
      [61, 62].map(
        async (lat) =>
          (
            await mutate<{ addPlace: { id: string } }>(
              `mutation ($lat: Float!) { addPlace(latitude: $lat, longitude: 5, label: "R${lat}") { id label position } }`,
              { lat },
            )
          ).addPlace.id,
      ),
    );
    const [first, second] = placeIds as [string, string];
    const RULES = gql`
      query Rules {
        alertRules {
          id
          name
          place {
            id
          }
        }
      }
    `;
    const BRIEFING_PLACES = gql`
      query BriefingPlaces {
        briefings {
          id
          places {
            id
          }
        }
      }
    `;
    await mutate(
      `mutation ($id: ID!) { saveAlertRule(input: { name: "Wind", placeId: $id, metric: WIND_GUSTS, threshold: 90 }) { id name place { id } } }`,
      { id: second },
    );
    await mutate(
      `mutation ($ids: [ID!]!) { saveBriefing(input: { name: "Both", placeIds: $ids, period: TODAY, time: "07:00", days: [MON] }) { id } }`,
      { ids: [first, second] },
    );
    await client.query(RULES, {}).toPromise();
    await client.query(BRIEFING_PLACES, {}).toPromise();
    const placeOrder = () => cached<{ places: Array<{ id: string }> }>(PLACES)!.places.map((place) => place.id);
    const before = placeOrder();

    const requestsBefore = requests;
    await mutate(`mutation ($id: ID!) { removePlace(id: $id) }`, { id: second });
    expect(cached<{ alertRules: unknown[] }>(RULES)!.alertRules).toEqual([]);
    const briefing = cached<{ briefings: Array<{ places: Array<{ id: string }> }> }>(BRIEFING_PLACES)!.briefings.at(-1)!;
    expect(briefing.places.map((place) => place.id)).toEqual([first]);
    expect(requests - requestsBefore).toBe(1);

    await mutate(`mutation ($id: ID!) { restorePlace(id: $id) { id label position } }`, { id: second });
    expect(placeOrder()).toEqual(before);
    // The rule list is stale now: it is fetched again, with the rule back.
    const rules = await client.query(RULES, {}).toPromise();
    expect(rules.data!.alertRules.map((rule: { name: string }) => rule.name)).toEqual(["Wind"]);
  });

  it("drops a deleted rule from the cached list, and merges saved settings into every cached view of them", async () => {
    const RULES = gql`
      query RulesList {
        alertRules {
          id
          name
        }
      }
    `;
    await client.query(RULES, {}).toPromise();
    const kept = cached<{ alertRules: Array<{ id: string }> }>(RULES)!.alertRules.length;
    const saved = await mutate<{ saveAlertRule: { id: string } }>(
      `mutation { saveAlertRule(input: { name: "Heat", metric: TEMPERATURE, threshold: 30 }) { id name } }`,
    );
    expect(cached<{ alertRules: unknown[] }>(RULES)!.alertRules).toHaveLength(kept + 1);

    await client.query(SETTINGS_QUERY, {}).toPromise();
    const requestsBefore = requests;
    await mutate(`mutation ($id: ID!) { deleteAlertRule(id: $id) }`, { id: saved.saveAlertRule.id });
    expect(cached<{ alertRules: Array<{ id: string }> }>(RULES)!.alertRules.map((rule) => rule.id)).not.toContain(saved.saveAlertRule.id);
    expect(cached<{ alertRules: unknown[] }>(RULES)!.alertRules).toHaveLength(kept);

    const updated = await client.mutation(UPDATE_SETTINGS_MUTATION, { input: { temperatureUnit: "FAHRENHEIT", hour12: true } }).toPromise();
    expect(updated.error).toBeUndefined();
    const settings = client.readQuery(SETTINGS_QUERY, {}, { requestPolicy: "cache-only" })!.data!.me!.settings;
    expect(settings).toMatchObject({ temperatureUnit: "FAHRENHEIT", hour12: true });
    expect(requests - requestsBefore).toBe(2); // the two mutations, nothing refetched
  });
});
