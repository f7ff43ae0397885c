import { afterEach, describe, expect, it, vi } from "vitest";
import { LOGIN_LIMITS } from "~/api/auth/login-guard.server";
import { SEARCH_RESULT_TTL_MS } from "~/api/weather/recent-locations.server";
import { codes, startTestApi, type TestApi } from "../support/api-server";
import {
  TestPlacesAddDocument,
  TestPlacesSearchDocument,
  TestSharedLogInDocument as LOG_IN,
  TestSharedLogOutDocument as LOG_OUT,
  TestSharedLookupDocument as LOOKUP,
  TestSharedMeEmailDocument as ME_EMAIL,
  TestSharedMeIdDocument as ME_ID,
} from "../support/documents.generated";
import { messageSubscriber } from "../support/subscriber";

/**
 * Two instances on one database: two APIs, each with its own connection, HTTP server and
 * WebSocket server, on one database (a SQLite file or a PostgreSQL database). What one counts, hands out or writes, the other sees.
 */
const open: TestApi[] = [];
afterEach(async () => {
  // The first owns the data directory (and the fake): it closes last.
  for (const api of open.splice(0).reverse()) await api.close();
});

async function twoInstances(): Promise<[TestApi, TestApi]> {
  const a = await startTestApi();
  open.push(a);
  const b = await startTestApi({ dataDir: a.dataDir, databaseUrl: a.databaseUrl, fake: a.fake });
  open.push(b);
  return [a, b];
}

const from = (address: string) => ({ headers: { "x-forwarded-for": address } });

describe("two instances on one database", () => {
  describe("rate limits", () => {
    it("count failed log-ins made on either instance against one limit", async () => {
      const [a, b] = await twoInstances();
      await a.signUp("shared-target@example.com", "the real password");
      for (let i = 0; i < LOGIN_LIMITS.perAccountFromAddress; i++) {
        const instance = i % 2 === 0 ? a : b;
        const result = await instance.gql(LOG_IN, { email: "shared-target@example.com", password: `guess ${i}` }, from("198.51.100.7"));
        expect(codes(result)).toEqual(["UNAUTHENTICATED"]);
      }
      for (const instance of [a, b]) {
        const limited = await instance.gql(
          LOG_IN,
          { email: "shared-target@example.com", password: "the real password" },
          from("198.51.100.7"),
        );
        expect(codes(limited)).toEqual(["RATE_LIMITED"]);
        expect(limited.errors![0]!.extensions!.retryAfterSeconds).toBeGreaterThan(800);
      }
      // Elsewhere the owner still gets in, on either instance.
      expect(
        codes(await b.gql(LOG_IN, { email: "shared-target@example.com", password: "the real password" }, from("198.51.100.8"))),
      ).toEqual([]);
    }, 120_000);

    it("let no more than the limit through when attempts reach both instances at once", async () => {
      const [a, b] = await twoInstances();
      await a.signUp("shared-parallel@example.com", "the real password");
      const attempts = Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? a : b).gql(LOG_IN, { email: "shared-parallel@example.com", password: `parallel guess ${i}` }, from("198.51.100.9")),
      );
      const results = await Promise.all(attempts);
      const checked = results.filter((result) => !codes(result).includes("RATE_LIMITED"));
      expect(checked.length).toBe(LOGIN_LIMITS.perAccountFromAddress);
    }, 120_000);

    it("spend one signed-out lookup budget per address, whichever instance answers", async () => {
      const [a, b] = await twoInstances();
      const lookup = (instance: TestApi) => instance.gql(LOOKUP, {}, from("198.51.100.20"));
      for (let i = 0; i < 60; i++) expect((await lookup(i % 2 === 0 ? a : b)).errors).toBeUndefined();
      expect(codes(await lookup(a))).toEqual(["RATE_LIMITED"]);
      expect(codes(await lookup(b))).toEqual(["RATE_LIMITED"]);
      // Another address has its own budget.
      expect((await b.gql(LOOKUP, {}, from("198.51.100.21"))).errors).toBeUndefined();
    }, 60_000);
  });

  describe("search results", () => {
    it("a place found through one instance can be added through the other, until the result expires", async () => {
      const clock = { now: Date.now() };
      const a = await startTestApi({ now: () => new Date(clock.now) });
      open.push(a);
      const b = await startTestApi({ dataDir: a.dataDir, databaseUrl: a.databaseUrl, fake: a.fake, now: () => new Date(clock.now) });
      open.push(b);
      const token = await a.signUp();
      const found = await a.gql(TestPlacesSearchDocument, { q: "Berlin" }, { token });
      const [berlin, second] = found.data!.searchLocations;
      const added = await b.gql(TestPlacesAddDocument, { locationId: berlin!.id }, { token });
      expect(added.errors).toBeUndefined();
      expect(added.data!.addPlace).toMatchObject({ label: "Berlin" });

      // An hour on, what was handed out is no longer accepted, on either instance.
      clock.now += SEARCH_RESULT_TTL_MS + 1000;
      if (second) expect(codes(await b.gql(TestPlacesAddDocument, { locationId: second.id }, { token }))).toEqual(["NOT_FOUND"]);
      expect(codes(await a.gql(TestPlacesAddDocument, { locationId: berlin!.id }, { token }))).toEqual(["NOT_FOUND"]);
      // A search after that prunes the expired rows: the table stays bounded.
      await b.gql(TestPlacesSearchDocument, { q: "Zurich" }, { token });
      const kept = await b.api.services.db.selectFrom("search_results").select("id").execute();
      expect(kept.map((row) => row.id)).not.toContain(berlin!.id);
    });
  });

  describe("session ends", () => {
    it("logging out on one instance ends the session's subscriptions on the other within about a second", async () => {
      const [a, b] = await twoInstances();
      const token = await a.signUp();
      const email = (await a.gql(ME_EMAIL, {}, { token })).data!.me!.email;
      const other = (await b.gql(LOG_IN, { email, password: "a sturdy passphrase" })).data!.logIn.token;
      const onB = messageSubscriber(b.url, token);
      const elsewhereOnB = messageSubscriber(b.url, other);
      // Subscribed: the session is being listened with on B.
      await vi.waitFor(() => expect(b.api.services.sessionEnds.watched().length).toBe(2));

      expect((await a.gql(LOG_OUT, {}, { token })).data).toEqual({ logOut: true });
      await vi.waitFor(() => expect(onB.seen.closeCode).toBe(4401), { timeout: 5_000, interval: 20 });
      expect(onB.seen.ended).toBe(true);
      // The same account's other session keeps listening.
      expect(elsewhereOnB.seen.closeCode).toBeNull();
      expect(b.api.services.sessionEnds.watched()).toHaveLength(1);
      await onB.dispose();
      await elsewhereOnB.dispose();
    });

    it("a session revoked in the database (by any instance) ends its subscriptions everywhere", async () => {
      const [a, b] = await twoInstances();
      const token = await a.signUp();
      const onA = messageSubscriber(a.url, token);
      const onB = messageSubscriber(b.url, token);
      await vi.waitFor(() => expect([a, b].map((t) => t.api.services.sessionEnds.watched().length)).toEqual([1, 1]));
      await a.api.services.db.updateTable("sessions").set({ revoked_at: new Date().toISOString() }).execute();
      await vi.waitFor(() => expect([onA.seen.closeCode, onB.seen.closeCode]).toEqual([4401, 4401]), { timeout: 5_000, interval: 20 });
      await onA.dispose();
      await onB.dispose();
    });
  });

  describe("live messages", () => {
    let written = 0;
    /** Writes a message as the bot does on `api`: stored, then published to that instance's own subscribers. */
    async function botWrites(api: TestApi, userId: string) {
      const row = await api.api.services.inbox.write({
        userId,
        kind: "SYSTEM",
        title: `Shared ${++written}`,
        body: "…",
        dedupeKey: `shared:${written}`,
      });
      api.api.services.inbox.publish(row!);
      return row!.id;
    }

    async function userOn(api: TestApi) {
      const token = await api.signUp();
      const me = await api.gql(ME_ID, {}, { token });
      return { token, userId: me.data!.me!.id };
    }

    it("a message written through either instance reaches the subscribers on both, once, in order, within a second", async () => {
      const [a, b] = await twoInstances();
      const { token, userId } = await userOn(a);
      const onA = messageSubscriber(a.url, token);
      const onB = messageSubscriber(b.url, token);
      await vi.waitFor(() => expect([a, b].map((t) => t.api.services.sessionEnds.watched().length)).toEqual([1, 1]));

      const ids: string[] = [];
      for (const through of [a, b, a, a, b]) {
        ids.push(await botWrites(through, userId));
        // Published at once where it was written; the other instance's follower brings it within a second.
        await vi.waitFor(() => expect([onA.seen.ids, onB.seen.ids]).toEqual([ids, ids]), { timeout: 1_000, interval: 10 });
      }
      // Ids sort in the order they were written, whichever instance wrote them.
      expect([...ids].sort()).toEqual(ids);
      // One more through A: when B has it, B's follower has looked past everything before, and nothing came twice.
      ids.push(await botWrites(a, userId));
      await vi.waitFor(() => expect(onB.seen.ids.at(-1)).toBe(ids.at(-1)));
      expect(onB.seen.ids).toEqual(ids);
      expect(onA.seen.ids).toEqual(ids);
      await onA.dispose();
      await onB.dispose();
    });

    it("a subscriber that reconnects after a message another instance committed late still gets it (ids follow commit order)", async () => {
      // A has one connection (SQLite's always, a pool of one on PostgreSQL), so holding it makes A's write wait.
      const a = await startTestApi({ databasePoolSize: 1 });
      open.push(a);
      const b = await startTestApi({ dataDir: a.dataDir, databaseUrl: a.databaseUrl, fake: a.fake });
      open.push(b);
      const { token, userId } = await userOn(a);
      const first = messageSubscriber(b.url, token);
      await vi.waitFor(() => expect(b.api.services.sessionEnds.watched()).toHaveLength(1));

      // A's connection is busy (a long read): a message A is asked to write waits behind it...
      let release!: () => void;
      const held = a.api.services.db.transaction().execute(async (trx) => {
        await trx.selectFrom("users").select("id").execute();
        await new Promise<void>((resolve) => (release = resolve));
      });
      await vi.waitFor(() => expect(release).toBeTypeOf("function"));
      const late = botWrites(a, userId);
      // ...while B writes one and its subscriber takes it, then goes away.
      const early = await botWrites(b, userId);
      await vi.waitFor(() => expect(first.seen.ids).toEqual([early]));
      await first.dispose();
      release();
      await held;
      const lateId = await late;
      // Committed after B's: it sorts after it, so "everything after what I have" includes it.
      expect(lateId > early).toBe(true);
      const again = messageSubscriber(b.url, token, early);
      await vi.waitFor(() => expect(again.seen.ids).toEqual([lateId]), { timeout: 3_000 });
      await again.dispose();
    });
  });
});
