import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession } from "~/api/auth/sessions.server";
import { ENGINE_SHARDS } from "~/api/bot/shard-ranges";
import { timeOrderedLowerBound } from "~/shared/live-cursor";
import { startFakeOpenMeteo, type FakeOpenMeteo } from "../fakes/open-meteo";
import { startAppInstances, waitFor, waitForLeasesToRunOut, type AppInstance } from "../support/app-instances";
import { engineOutcome, openApi, seedEngineWork, startEngineInstance, type EngineStore } from "../support/engine-fixture";
import { copyTestDatabase, plainKysely, testDatabaseUrl } from "../support/test-database";
import { TestSeveralSendNowDocument as SEND_NOW } from "../support/documents.generated";
import { messageSubscriber } from "../support/subscriber";

/*
 * Three whole instances (API, HTTP, WebSocket, engine), each its own process, on one database
 * (PostgreSQL, or one SQLite file): subscribers on each, messages written through each, one
 * instance killed with SIGKILL mid-tick. Then every expected briefing and alert is there
 * exactly once, and every subscriber has every message of its user once, in order.
 */
const NOW = "2026-06-01T05:00:30.000Z";
const USERS = 24;
/** Seeded users who also get a session: they subscribe and write through the instances. */
const SIGNED_IN = 4;
const LEASE_MS = 3_000;
const ALL_SHARDS = Array.from({ length: ENGINE_SHARDS }, (_, shard) => shard);

let weather: FakeOpenMeteo;
let template: EngineStore;
const dirs: string[] = [];
const instances: AppInstance[] = [];
const subscribers: Subscriber[] = [];
let expected: Awaited<ReturnType<typeof engineOutcome>>;
/** The signed-in users: a token and a briefing each. */
let accounts: Array<{ userId: string; token: string; briefingId: string }>;

async function freshDir() {
  const dir = await mkdtemp(path.join(tmpdir(), "weatherbot-several-"));
  dirs.push(dir);
  return dir;
}

/** A copy of the seeded data directory (SQLite's file is in it) and of its PostgreSQL database. */
async function copyOfTemplate(): Promise<EngineStore> {
  const dataDir = await freshDir();
  await cp(template.dataDir, dataDir, { recursive: true });
  return { dataDir, databaseUrl: template.databaseUrl && (await copyTestDatabase(template.databaseUrl)) };
}

type Subscriber = { instance: AppInstance; seen: { ids: string[]; ended: boolean }; dispose: () => Promise<void> | void };

/** A graphql-ws client on `instance` that never reconnects, following the user's messages after `after`. */
function subscribe(instance: AppInstance, token: string, after: string): Subscriber {
  const subscriber: Subscriber = { instance, ...messageSubscriber(instance.url(), token, after) };
  subscribers.push(subscriber);
  return subscriber;
}

/** Writes a message for the user through `instance` (the mutation that does); returns its id. */
async function sendNow(instance: AppInstance, account: (typeof accounts)[number]) {
  const result = await instance.gql(SEND_NOW, { id: account.briefingId }, account.token);
  if (!result.data?.sendBriefingNow) throw new Error(`sendBriefingNow through ${instance.id} failed: ${JSON.stringify(result.errors)}`);
  return result.data.sendBriefingNow.id;
}

/** Every message in the store: id, user and key, in id order (the order subscribers get them in). */
async function storedMessages(store: EngineStore) {
  const database = plainKysely<{ messages: { id: string; user_id: string; dedupe_key: string } }>(
    store.databaseUrl ?? path.join(store.dataDir, "weatherbot.sqlite"),
  );
  try {
    return await database.selectFrom("messages").select(["id", "user_id", "dedupe_key"]).orderBy("id").execute();
  } finally {
    await database.destroy();
  }
}

/** Messages written on request (sendBriefingNow) carry a random key: not part of what the engine must write. */
const onRequest = (content: string) => /^briefing:[^:]+:now:/.test(content);

beforeAll(async () => {
  weather = await startFakeOpenMeteo({ now: () => new Date(NOW) });
  template = { dataDir: await freshDir(), databaseUrl: await testDatabaseUrl() };
  await seedEngineWork(template, weather.url, NOW, USERS);
  // Sessions for some of the seeded users, as logging in would make them.
  const api = await openApi(template, weather.url, NOW);
  try {
    const { db } = api.services;
    const users = await db.selectFrom("users").select("id").orderBy("email").limit(SIGNED_IN).execute();
    accounts = [];
    for (const { id } of users) {
      const { token } = await createSession(db, id, new Date(NOW));
      const briefing = await db.selectFrom("briefings").select("id").where("user_id", "=", id).orderBy("name").executeTakeFirstOrThrow();
      accounts.push({ userId: id, token, briefingId: briefing.id });
    }
  } finally {
    await api.close();
  }
  // What one instance alone writes in a tick, on a copy: the reference.
  const alone = await copyOfTemplate();
  const single = startEngineInstance(alone, weather.url, NOW, { id: "alone", leaseMs: 60_000 });
  try {
    await single.ready();
    single.tick(1);
    expect((await single.passed(1)).shards).toEqual(ALL_SHARDS);
  } finally {
    await single.stop();
  }
  expected = await engineOutcome(alone, weather.url, NOW);
  expect(expected.briefings).toBe(USERS * 2);
  // Four rules on every place per user, each crossing: one alert per rule, however many places and windows.
  expect(expected.alerts).toBe(USERS * 4);
  expect(expected.uniqueKeys).toBe(expected.total);
}, 180_000);

afterAll(async () => {
  await Promise.all(subscribers.map((subscriber) => subscriber.dispose()));
  await Promise.all(instances.map((instance) => instance.kill()));
  await weather?.close();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("three instances on one database", () => {
  it("one killed with SIGKILL mid-tick: every briefing and alert once, every subscriber every message of its user once, in order", async () => {
    const store = await copyOfTemplate();
    const started = await startAppInstances(store, weather.url, NOW, 3, LEASE_MS);
    instances.push(...started);
    const [victim, ...survivors] = started as [AppInstance, AppInstance, AppInstance];

    // From before anything is written: a subscriber gets all of its user's messages.
    const from = timeOrderedLowerBound(Date.now() - 60_000);
    const byUser = new Map(
      accounts.map((account) => [account.userId, started.map((instance) => subscribe(instance, account.token, from))]),
    );

    // Messages written through each instance, for each signed-in user; each subscriber on every instance gets them.
    const sent: string[] = [];
    for (const instance of started) {
      for (const account of accounts) sent.push(await sendNow(instance, account));
    }
    await waitFor(
      () => [...byUser.values()].every((list) => list.every((subscriber) => subscriber.seen.ids.length >= started.length)),
      "every subscriber to have the messages written through every instance",
    );

    // The tick on all three, with messages written through the survivors while it runs; the victim dies once it holds shards.
    for (const instance of started) instance.tick(1);
    const during = Promise.all(survivors.flatMap((instance) => accounts.map((account) => sendNow(instance, account))));
    await victim.claimedOnce();
    await victim.kill();
    const held = victim.claims.flat();
    expect(held.length).toBeGreaterThan(0);
    sent.push(...(await during));
    await Promise.all(survivors.map((instance) => instance.passed(1)));

    // The next tick starts after the dead instance's lease has run out: the survivors finish its shards.
    await waitForLeasesToRunOut(store);
    for (const instance of survivors) instance.tick(2);
    const reports = await Promise.all(survivors.map((instance) => instance.passed(2)));
    expect(reports.flatMap((report) => report.shards).sort((a, b) => a - b)).toEqual(ALL_SHARDS);
    for (const account of accounts) sent.push(await sendNow(survivors[0]!, account));

    // Every expected briefing and alert exactly once, by key and by content; every briefing moved on.
    const after = await engineOutcome(store, weather.url, NOW);
    expect(after.contents.filter((content) => !onRequest(content))).toEqual(expected.contents);
    expect(after.uniqueKeys).toBe(after.total);
    expect(after.stillDue).toBe(0);
    expect([after.untold, after.unbacked]).toEqual([0, 0]);
    const finishedBy = new Map(after.shards.map((shard) => [shard.shard, shard.owner]));
    for (const shard of held) expect(finishedBy.get(shard)).not.toBe(victim.id);
    // Every message written on request is there once: the ones answered, no other.
    const stored = await storedMessages(store);
    expect(
      stored
        .filter((message) => onRequest(message.dedupe_key))
        .map((message) => message.id)
        .sort(),
    ).toEqual([...sent].sort());

    for (const account of accounts) {
      const mine = stored.filter((message) => message.user_id === account.userId).map((message) => message.id);
      // Nothing lost: the user's briefings and alerts of the reference run, and the messages written for them on request.
      const engineWrote = expected.contents.filter((content) => content.split("\n")[2] === account.userId).length;
      expect(engineWrote).toBeGreaterThan(2);
      expect(mine.length).toBe(
        engineWrote + sent.filter((id) => stored.find((message) => message.id === id)!.user_id === account.userId).length,
      );
      expect(sent.filter((id) => mine.includes(id)).length).toBe(started.length + survivors.length + 1);
      const [onVictim, ...onSurvivors] = byUser.get(account.userId)!;
      // On the survivors: everything, once, in order.
      for (const subscriber of onSurvivors) {
        await waitFor(() => subscriber.seen.ids.length >= mine.length, `${subscriber.instance.id}'s subscriber to catch up`);
        expect(subscriber.seen.ids).toEqual(mine);
        expect(subscriber.seen.ended).toBe(false);
      }
      // The victim's subscriber lost its connection; reconnected to a survivor after the last id it saw, it has everything once too.
      await waitFor(() => onVictim!.seen.ended, "the victim's subscriber to see its connection end");
      const resumed = subscribe(survivors[1]!, account.token, onVictim!.seen.ids.at(-1) ?? from);
      await waitFor(() => onVictim!.seen.ids.length + resumed.seen.ids.length >= mine.length, "the resumed subscriber to catch up");
      expect([...onVictim!.seen.ids, ...resumed.seen.ids]).toEqual(mine);
    }

    // A message written now reaches every live subscriber once more, and nothing else does.
    const last = await sendNow(survivors[1]!, accounts[0]!);
    const live = subscribers.filter(
      (subscriber) => subscriber.instance !== victim && byUser.get(accounts[0]!.userId)!.includes(subscriber),
    );
    await waitFor(() => live.every((subscriber) => subscriber.seen.ids.at(-1) === last), "the last message everywhere");
    await Promise.all(survivors.map((instance) => instance.stop()));
  }, 300_000);
});
