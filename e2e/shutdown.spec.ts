import { execFileSync } from "node:child_process";
import { request as httpRequest, Agent } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { WebSocket } from "ws";
import { startFakeOpenMeteo, type FakeOpenMeteo } from "../tests/fakes/open-meteo";
import { startPostgresServer } from "../tests/support/postgres-server";
import { expect, test } from "./fixtures";
import { ROOT, startAppServer, type AppServer } from "./support/app-server";
import {
  E2eShutdownMeDocument,
  E2eShutdownMessageReceivedDocument,
  E2eShutdownPageDocument,
  E2eShutdownSaveDocument,
  E2eShutdownSendDocument,
  type E2eShutdownPageQuery,
  type E2eShutdownSaveMutation,
  type E2eShutdownSendMutation,
} from "./support/documents.generated";
import { accountWithPlace, operationBody } from "./support/graphql";

/**
 * SIGTERM under load, against the built server, on SQLite and on PostgreSQL: every request is
 * answered or refused before the server read it (never cut off mid-answer), an open
 * subscription is closed with 1012 (which clients retry), the engine's tick under way
 * finishes, the process exits 0 within 10 s, and every mutation it acknowledged is there
 * after a restart.
 */

type Outcome =
  | { kind: "answered"; status: number; retryAfter: string | undefined; body: string; sentAt: number; doneAt: number }
  | { kind: "refused"; code: string; sentAt: number }
  | { kind: "broken"; error: string; sentAt: number };

/** One POST to /graphql on `agent`'s kept-alive connections, told apart by how it ended. */
function post(port: number, agent: Agent, token: string, body: unknown): Promise<Outcome> {
  const sentAt = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: Outcome) => {
      if (!settled) resolve(outcome);
      settled = true;
    };
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path: "/graphql",
        method: "POST",
        agent,
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const retryAfter = res.headers["retry-after"];
          settle(
            res.complete
              ? {
                  kind: "answered",
                  status: res.statusCode ?? 0,
                  retryAfter: typeof retryAfter === "string" ? retryAfter : undefined,
                  body: Buffer.concat(chunks).toString(),
                  sentAt,
                  doneAt: performance.now(),
                }
              : { kind: "broken", error: "incomplete answer", sentAt },
          );
        });
        // Once the answer has begun, any failure is a cut-off answer.
        res.on("aborted", () => settle({ kind: "broken", error: "aborted mid-answer", sentAt }));
        res.on("error", (error) => settle({ kind: "broken", error: `mid-answer: ${error.message}`, sentAt }));
      },
    );
    // Before any answer: the connection was refused, or closed before the server read the request.
    req.on("error", (error: NodeJS.ErrnoException) => settle({ kind: "refused", code: error.code ?? error.message, sentAt }));
    req.end(JSON.stringify(body));
  });
}

// shutdown.graphql's documents, sent on this file's own agents and sockets (see post and subscribe).
const ME = operationBody(E2eShutdownMeDocument);
const sendBriefingNow = (id: string) => operationBody(E2eShutdownSendDocument, { id });

/** Every message id of the account, page by page. */
async function messageIds(port: number, token: string): Promise<Set<string>> {
  const ids = new Set<string>();
  const agent = new Agent();
  for (let after: string | null = null; ;) {
    const outcome = await post(port, agent, token, operationBody(E2eShutdownPageDocument, { after }));
    if (outcome.kind !== "answered") throw new Error(`messages: ${outcome.kind}`);
    const page = (JSON.parse(outcome.body) as { data: E2eShutdownPageQuery }).data.messages;
    for (const edge of page.edges) ids.add(edge.id);
    if (!page.hasMore) return ids;
    after = page.endCursor;
  }
}

/** A graphql-ws subscription to the account's messages; resolves `live` once a message came through it. */
function subscribe(port: number, token: string) {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, "graphql-transport-ws");
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on("close", (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  let onMessage: () => void = () => {};
  const received = new Promise<void>((resolve) => (onMessage = resolve));
  socket.on("open", () => socket.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${token}` } })));
  socket.on("message", (data) => {
    const message = JSON.parse(data.toString()) as { type: string };
    if (message.type === "connection_ack") {
      socket.send(JSON.stringify({ id: "1", type: "subscribe", payload: operationBody(E2eShutdownMessageReceivedDocument) }));
    }
    if (message.type === "next") onMessage();
  });
  return { closed, received };
}

/** Where the server keeps its data: a data directory, and the PostgreSQL database if any. */
type EngineStore = { dataDir: string; databaseUrl?: string };

/** The engine fixture (tests/support/engine-fixture.ts), run in a process of its own: seeds users with due work, or reads what the engine wrote. */
function engineStore(store: EngineStore, args: string[]): string {
  return execFileSync(process.execPath, ["--import", "tsx", path.join(ROOT, "tests/support/engine-store-cli.ts"), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: store.databaseUrl ?? "" },
    encoding: "utf8",
  });
}
const seedEngineWork = (store: EngineStore, weatherUrl: string, now: string, users: number) =>
  engineStore(store, ["seed", store.dataDir, weatherUrl, now, String(users)]);
const engineOutcome = (store: EngineStore, weatherUrl: string, now: string) =>
  JSON.parse(engineStore(store, ["outcome", store.dataDir, weatherUrl, now])) as { alerts: number; stillDue: number };

/** The seeded users' places sit at latitudes 10 and 11 (seedEngineWork): only the engine asks for them. */
const SEEDED_USERS = 2;
const isSeededPlace = (latitude: number) => latitude >= 10 && latitude < 10 + SEEDED_USERS;

async function shutdownUnderLoad(store: EngineStore, weather: FakeOpenMeteo, request: Parameters<typeof accountWithPlace>[0]) {
  const databaseEnv: Record<string, string> = store.databaseUrl ? { DATABASE_URL: store.databaseUrl } : {};
  const env = { DATA_DIR: store.dataDir, OPEN_METEO_FORECAST_URL: weather.url, OPEN_METEO_GEOCODING_URL: weather.url, ...databaseEnv };
  let server: AppServer | null = await startAppServer(env);
  const release = weather.holdForecasts((latitude) => isSeededPlace(latitude));
  try {
    const account = await accountWithPlace(request, server.baseURL, "Shutdown Shoals");
    const subscription = subscribe(server.port, account.token);
    // Until one comes through: the subscription is registered a moment after the socket opens.
    let live = false;
    void subscription.received.then(() => (live = true));
    await expect
      .poll(async () => {
        if (!live) await account.sendBriefing();
        return live;
      })
      .toBe(true);

    // Users whose rules fire, written beside the running server: its next tick (on a 30-second
    // boundary) asks for their places' forecasts, which are held here, so the tick is under way until released.
    seedEngineWork(store, weather.url, new Date().toISOString(), SEEDED_USERS);
    await expect
      .poll(() => weather.forecastRequests.some((call) => call.some(({ latitude }) => isSeededPlace(latitude))), { timeout: 60_000 })
      .toBe(true);

    const saved = await post(
      server.port,
      new Agent(),
      account.token,
      operationBody(E2eShutdownSaveDocument, {
        input: { name: "Load", placeIds: [account.placeId], period: "TODAY", time: "07:00", days: ["MON"] },
      }),
    );
    const briefingId = (JSON.parse((saved as { body: string }).body) as { data: E2eShutdownSaveMutation }).data.saveBriefing.id;

    // Eight clients, each on kept-alive connections, alternating a query and a mutation until refused.
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const outcomes: Outcome[] = [];
    let signalledAt = Infinity;
    let stop = false;
    const clients = Array.from({ length: 8 }, async (_, client) => {
      for (let n = 0; !stop; n++) {
        const body = (n + client) % 2 === 0 ? ME : sendBriefingNow(briefingId);
        const outcome = await post(server!.port, agent, account.token, body);
        outcomes.push(outcome);
        if (outcome.kind !== "answered") return;
      }
    });
    await expect.poll(() => outcomes.length).toBeGreaterThan(40);

    signalledAt = performance.now();
    server.signal("SIGTERM");
    await expect.poll(() => server!.output()).toContain("SIGTERM received");
    // The engine's tick is still waiting for its forecasts: let it go on now.
    release();
    const code = await server.exited;
    const tookMs = performance.now() - signalledAt;
    stop = true;
    await Promise.all(clients);
    agent.destroy();
    const output = server.output();
    server = null;

    expect(code, output).toBe(0);
    expect(tookMs).toBeLessThan(10_000);
    expect(output).toContain("Shutdown complete");
    expect((await subscription.closed).code).toBe(1012);

    const broken = outcomes.filter((outcome) => outcome.kind === "broken");
    expect(broken).toEqual([]);
    const answered = outcomes.filter((outcome) => outcome.kind === "answered");
    for (const outcome of answered) {
      if (outcome.status === 503) expect(outcome.retryAfter).toBeTruthy();
      else expect(outcome.status, outcome.body).toBe(200);
      const result = JSON.parse(outcome.body) as { errors?: unknown[] };
      if (outcome.status === 200) expect(result.errors, outcome.body).toBeUndefined();
    }
    // Requests under way when the signal came were answered, not dropped.
    expect(answered.filter((outcome) => outcome.sentAt < signalledAt && outcome.doneAt > signalledAt).length).toBeGreaterThan(0);
    const refused = outcomes.filter((outcome) => outcome.kind === "refused");
    for (const outcome of refused) expect(["ECONNREFUSED", "ECONNRESET", "EPIPE"]).toContain(outcome.code);

    // The tick under way finished before the database closed.
    const outcome = engineOutcome(store, weather.url, new Date().toISOString());
    // The seeded briefings are months late (skipped, not written); each user's 4 rules fire at all of their 5 places,
    // one alert each naming them.
    expect(outcome.stillDue).toBe(0);
    expect(outcome.alerts).toBe(SEEDED_USERS * 4);

    // Every acknowledged mutation (a message written) is there after a restart.
    const acknowledged = answered.flatMap((outcome) => {
      const result = JSON.parse(outcome.body) as { data?: Partial<E2eShutdownSendMutation> };
      return result.data?.sendBriefingNow ? [result.data.sendBriefingNow.id] : [];
    });
    expect(acknowledged.length).toBeGreaterThan(0);
    server = await startAppServer(env);
    const ids = await messageIds(server.port, account.token);
    expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
  } finally {
    release();
    await server?.stop();
  }
}

test.describe("SIGTERM under load", () => {
  test.describe.configure({ mode: "parallel" });
  test.setTimeout(180_000);

  test("on SQLite: everything answered or refused cleanly, 1012 to subscribers, the tick finished, exit 0, nothing acknowledged lost", async ({
    request,
  }) => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "weatherbot-shutdown-"));
    const weather = await startFakeOpenMeteo();
    try {
      await shutdownUnderLoad({ dataDir }, weather, request);
    } finally {
      await weather.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test("on PostgreSQL: the same", async ({ request }) => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "weatherbot-shutdown-"));
    const weather = await startFakeOpenMeteo();
    const postgres = await startPostgresServer();
    try {
      const admin = new pg.Client({ connectionString: postgres.adminUrl });
      await admin.connect();
      await admin.query("create database shutdown");
      await admin.end();
      const databaseUrl = postgres.adminUrl.replace(/\/postgres$/, "/shutdown");
      await shutdownUnderLoad({ dataDir, databaseUrl }, weather, request);
    } finally {
      await postgres.stop();
      await weather.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
