import type { TypedDocumentNode } from "@urql/core";
import { print } from "graphql";
import type { Client } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { LISTENER_NAME } from "~/api/db/write-announcements.server";
import { timeOrderedLowerBound } from "~/shared/live-cursor";
import { startTestApi, type GraphQLResponse, type TestApi } from "../../support/api-server";
import { startPostgresServer, type PostgresServer } from "../../support/postgres-server";
import { databaseUrlFor, withAdmin } from "../../support/test-database";
import {
  TestRestartAddPlaceDocument as ADD,
  TestRestartHomeDocument as HOME,
  TestRestartLiveDocument as LIVE,
  TestRestartMeDocument as ME,
  TestRestartRenamePlaceDocument as RENAME,
  TestRestartSignUpDocument as SIGN_UP,
} from "../../support/documents.generated";
import { wsClient } from "../../support/subscriber";

/**
 * A PostgreSQL restart under a running API: requests in the gap fail cleanly and fast with
 * a retryable error, the process keeps going, and afterwards everything works again without
 * restarting the API. The server is this file's own: the run's shared one serves other files.
 */

/** A gap request must be answered within this (a connection attempt is bounded, not left to hang). */
const GAP_ANSWER_MS = 8_000;

let server: PostgresServer;
let databaseUrl: string;
let t: TestApi;

beforeAll(async () => {
  server = await startPostgresServer();
  await withAdmin(server.adminUrl, (client) => client.query("create database weatherbot"));
  databaseUrl = databaseUrlFor(server.adminUrl, "weatherbot");
  t = await startTestApi({ databaseUrl });
}, 120_000);

afterAll(async () => {
  await t?.close();
  await server?.stop();
});

/** A POST to /graphql with its raw answer: status, headers and body, and how long it took. */
async function post<V extends Record<string, unknown>>(document: TypedDocumentNode<unknown, V>, variables = {} as V, token?: string) {
  const started = performance.now();
  const response = await fetch(t.url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query: print(document), variables }),
  });
  const body = (await response.json()) as Omit<GraphQLResponse, "status">;
  return { status: response.status, retryAfter: response.headers.get("retry-after"), ms: performance.now() - started, ...body };
}

async function health() {
  const response = await fetch(new URL("/healthz", t.url));
  return {
    status: response.status,
    body: (await response.json()) as { status: string; database: { dialect: string; reachable: boolean } | null },
  };
}

type Received = { results: unknown[]; errors: unknown[]; completed: boolean };

function subscribeLive(client: Client, after: string): Received {
  const received: Received = { results: [], errors: [], completed: false };
  client.subscribe(
    // graphql-ws takes the text: the typed document printed, as the HTTP helpers send it.
    { query: print(LIVE), variables: { after } },
    {
      next: (value) => received.results.push(value),
      error: (error) => received.errors.push(error),
      complete: () => (received.completed = true),
    },
  );
  return received;
}

describe("PostgreSQL restart", () => {
  it("requests in the gap fail cleanly with a retryable 503; afterwards all works again, without restarting the API", async () => {
    const crashes: unknown[] = [];
    const onCrash = (error: unknown) => crashes.push(error);
    process.on("unhandledRejection", onCrash);
    process.on("uncaughtException", onCrash);
    const warn = vi.spyOn(console, "warn");
    const clients: Client[] = [];
    try {
      const token = await t.signUp();
      const placeId = (await t.gql(ADD, { label: "Home" }, { token })).data!.addPlace.id;
      const labels = async () => (await t.gql(HOME, {}, { token })).data!.me!.places.map((p) => p.label);
      expect(await labels()).toEqual(["Home"]);
      expect((await health()).body.database).toEqual({ dialect: "postgres", reachable: true });

      // A subscriber from before the gap: it should hear messages written after it.
      const before = wsClient(t.url, token);
      clients.push(before);
      const live = subscribeLive(before, timeOrderedLowerBound(Date.now()));
      const me = (await t.gql(ME, {}, { token })).data!.me!;
      // Its session is watched (the session follower reads every 500 ms) once the socket is subscribed.
      await vi.waitFor(() => expect(t.api.services.sessionEnds.watched().length).toBeGreaterThan(0));

      await server.halt();

      // HTTP: signed in, signed out, a read and a write; each a clean, retryable 503, soon.
      const gap = [
        await post(ME, {}, token),
        await post(HOME, {}, token),
        await post(RENAME, { id: placeId, label: "Gap" }, token),
        await post(SIGN_UP, { email: `gap-${Date.now()}@example.com` }),
      ];
      for (const answer of gap) {
        expect(answer.status).toBe(503);
        expect(answer.retryAfter).toMatch(/^\d+$/);
        expect(answer.errors?.map((error) => error.extensions?.code)).toEqual(["SERVICE_UNAVAILABLE"]);
        expect(answer.errors?.[0]?.extensions?.retryable).toBe(true);
        expect(answer.ms).toBeLessThan(GAP_ANSWER_MS);
      }

      // WebSocket: a new subscription is refused on its own id with the same error; the socket stays usable.
      const during = wsClient(t.url, token);
      clients.push(during);
      const refused = subscribeLive(during, timeOrderedLowerBound(Date.now()));
      await vi.waitFor(() => expect(refused.errors.length).toBe(1), { timeout: GAP_ANSWER_MS });
      expect((refused.errors[0] as Array<{ extensions?: { code?: string } }>).map((error) => error.extensions?.code)).toEqual([
        "SERVICE_UNAVAILABLE",
      ]);

      // Readiness: the instance says it cannot serve.
      const down = await health();
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ status: "unavailable", database: { dialect: "postgres", reachable: false } });

      // The background loops met the outage too: each says so once (console.warn), not as an incident.
      await vi.waitFor(() => {
        const said = warn.mock.calls.map((call) => String(call[0]));
        expect(said.some((line) => line.startsWith("[inbox]"))).toBe(true);
        expect(said.some((line) => line.startsWith("[sessions]"))).toBe(true);
      });
      const warnedInGap = warn.mock.calls.length;

      await server.resume();

      // Recovery, waited for as a state: the same API answers again.
      await vi.waitFor(async () => expect((await post(ME, {}, token)).status).toBe(200), { timeout: 30_000, interval: 200 });
      expect((await health()).status).toBe(200);
      expect((await health()).body).toMatchObject({ status: "ok", database: { dialect: "postgres", reachable: true } });
      expect(warn.mock.calls.length - warnedInGap).toBeLessThanOrEqual(4);

      // The write-announcement listener is back on its own connection...
      await vi.waitFor(
        async () => {
          const { rows } = await withAdmin(server.adminUrl, (client) =>
            client.query("select count(*)::int as n from pg_stat_activity where application_name = $1", [LISTENER_NAME]),
          );
          expect(rows[0].n).toBe(1);
        },
        { timeout: 30_000, interval: 200 },
      );
      // ...so a cached answer is cached again, and a write by another instance still replaces it.
      expect(await labels()).toEqual(["Home"]);
      expect(await labels()).toEqual(["Home"]);
      const there = await startTestApi({ databaseUrl, fake: t.fake });
      try {
        await there.gql(RENAME, { id: placeId, label: "Loft" }, { token });
      } finally {
        await there.close();
      }
      expect(await labels()).toEqual(["Loft"]);

      // A new subscription works, and the one from before the gap hears a message written after it.
      const after = wsClient(t.url, token);
      clients.push(after);
      const liveAfter = subscribeLive(after, timeOrderedLowerBound(Date.now()));
      const row = await t.api.services.inbox.write({
        userId: me.id,
        kind: "SYSTEM",
        title: "After the gap",
        body: "…",
        dedupeKey: "restart:1",
      });
      t.api.services.inbox.publish(row!);
      await vi.waitFor(() => {
        expect(JSON.stringify(live.results)).toContain("After the gap");
        expect(JSON.stringify(liveAfter.results)).toContain("After the gap");
      });
      expect(liveAfter.errors).toEqual([]);

      expect(crashes.map((error) => (error instanceof Error ? error.stack : String(error)))).toEqual([]);
    } finally {
      await Promise.all(clients.map((client) => client.dispose()));
      process.off("unhandledRejection", onCrash);
      process.off("uncaughtException", onCrash);
    }
  });
});
