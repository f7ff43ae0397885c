import { spawn } from "node:child_process";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenMeteo, type FakeOpenMeteo } from "../fakes/open-meteo";
import { startFakeSmtp, type FakeSmtp, type ReceivedMail } from "../fakes/smtp";
import { codes, testApis, type TestApi } from "../support/api-server";
import { ENGINE_ENTRY, openApi, seedEngineWork, startEngineInstance, warningsEnv, type EngineStore } from "../support/engine-fixture";
import { copyTestDatabase, testDatabaseUrl } from "../support/test-database";
import {
  TestEmailBriefingAddPlaceDocument as ADD_PLACE,
  TestEmailBriefingDeliveryDocument as DELIVERY,
  TestEmailBriefingSaveDocument as SAVE,
  TestEmailBriefingUnsubscribeDocument as UNSUBSCRIBE,
  TestEmailBriefingUnsubscriptionDocument as UNSUBSCRIPTION,
  type BriefingInput,
} from "../support/documents.generated";

/*
 * Briefings by email against a real SMTP server on loopback: mailed once with their message, formatted
 * as the inbox formats it, with a one-click unsubscribe link (RFC 8058) that turns the emails off;
 * and exactly once when the engine is killed with SIGKILL mid-pass and mid-send, and when two
 * engine instances share the tick.
 */
const NOW = "2026-06-01T05:00:30.000Z";
const USERS = 12;
/** A killed sender's claim on its mail holds this long; then another instance takes the mail over. */
const MAIL_LEASE_MS = 2_000;

let smtp: FakeSmtp;
let weather: FakeOpenMeteo;
const dirs: string[] = [];
beforeAll(async () => {
  smtp = await startFakeSmtp();
  weather = await startFakeOpenMeteo({ now: () => new Date(NOW) });
});
afterAll(async () => {
  smtp.release();
  await smtp.close();
  await weather.close();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

const apis = testApis();

const daily = (placeIds: string[], delivery: BriefingInput["delivery"]): BriefingInput => ({
  name: "Morning <Berlin>",
  placeIds,
  period: "TODAY",
  time: "07:00",
  days: ["MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"],
  delivery,
});

/** Makes every briefing of the database due, as its time had come `minutesAgo` (each due time is one message). */
async function makeDue(test: TestApi, minutesAgo: number) {
  const dueAt = new Date(Date.parse(NOW) - minutesAgo * 60_000).toISOString();
  await test.api.services.db.updateTable("briefings").set({ next_run_at: dueAt }).execute();
}

const unsubscribeToken = (mail: ReceivedMail) => {
  const header = /^<http:\/\/weatherbot\.test\/unsubscribe\?token=([^>]+)>$/.exec(mail.headers["list-unsubscribe"] ?? "");
  expect(header, `List-Unsubscribe: ${mail.headers["list-unsubscribe"]}`).not.toBeNull();
  return decodeURIComponent(header![1]!);
};

describe("email briefings", () => {
  it("are mailed once with their message, as the inbox formats it, with a one-click unsubscribe link that turns them off", async () => {
    const test = await apis({ mail: { smtpUrl: smtp.url }, now: () => new Date(NOW), fake: weather });
    const email = `briefed-${Date.now()}@example.com`;
    const token = await test.signUp(email);
    const place = await test.gql(ADD_PLACE, {}, { token });
    const saved = await test.gql(SAVE, { input: daily([place.data!.addPlace.id], ["EMAIL"]) }, { token });
    expect(saved.data!.saveBriefing.delivery).toEqual(["EMAIL"]);

    // The first attempt meets a 451: it is tried again.
    smtp.failNext(1, 451);
    await makeDue(test, 2);
    expect((await test.api.services.briefings.runDue()).sent).toBe(1);
    const mail = await smtp.waitForMail((received) => received.to.includes(email));
    const [message] = await test.api.services.db.selectFrom("messages").selectAll().where("kind", "=", "BRIEFING").execute();
    expect(mail.subject).toBe(message!.title);
    expect(mail.subject).toBe("Morning <Berlin> · Today");
    for (const line of message!.body.split("\n")) expect(mail.text).toContain(line);
    expect(mail.html).toContain("Morning &lt;Berlin&gt; · Today");
    expect(mail.text).toContain("You get this email because the briefing “Morning <Berlin>” is set to arrive by email.");
    expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    const unsubscribe = unsubscribeToken(mail);
    expect(mail.text).toContain(`Stop emailing this briefing: http://weatherbot.test/unsubscribe?token=${encodeURIComponent(unsubscribe)}`);

    // Run again, nothing more: the message and its mail exist once.
    expect((await test.api.services.briefings.runDue()).sent).toBe(0);
    await test.api.services.mail.flush();
    expect(smtp.mails.filter((received) => received.to.includes(email))).toHaveLength(1);
    expect(await test.api.services.db.selectFrom("mail_outbox").select(["kind", "state", "attempts"]).execute()).toEqual([
      { kind: "BRIEFING", state: "SENT", attempts: 2 },
    ]);

    // The link, no log-in: what it is for, then off (twice is the same); the briefing itself stays.
    expect((await test.gql(UNSUBSCRIPTION, { token: unsubscribe })).data!.briefingEmail).toEqual({
      id: saved.data!.saveBriefing.id,
      briefingName: "Morning <Berlin>",
      emailed: true,
    });
    for (let i = 0; i < 2; i++) {
      expect((await test.gql(UNSUBSCRIBE, { token: unsubscribe })).data!.unsubscribeBriefingEmail).toMatchObject({ emailed: false });
    }
    expect((await test.gql(DELIVERY, {}, { token })).data!.briefings).toEqual([{ id: saved.data!.saveBriefing.id, delivery: [] }]);
    await makeDue(test, 1);
    expect((await test.api.services.briefings.runDue()).sent).toBe(1);
    await test.api.services.mail.flush();
    expect(smtp.mails.filter((received) => received.to.includes(email))).toHaveLength(1);

    // A link not made here does nothing.
    const forged = `${saved.data!.saveBriefing.id}.${"A".repeat(43)}`;
    expect((await test.gql(UNSUBSCRIPTION, { token: forged })).data!.briefingEmail).toBeNull();
    const refused = await test.gql(UNSUBSCRIBE, { token: forged });
    expect(refused.errors![0]!.extensions).toMatchObject({ code: "BAD_USER_INPUT", field: "token", reason: "TOKEN_INVALID" });
  });

  it("keep a briefing's channels when an edit does not name them, push only where chosen, and refuse email without mail", async () => {
    const withMail = await apis({ mail: { smtpUrl: smtp.url }, now: () => new Date(NOW), fake: weather });
    const token = await withMail.signUp();
    const placeIds = [(await withMail.gql(ADD_PLACE, {}, { token })).data!.addPlace.id];
    const created = await withMail.gql(SAVE, { input: daily(placeIds, null) }, { token });
    expect(created.data!.saveBriefing.delivery).toEqual(["PUSH"]);
    const id = created.data!.saveBriefing.id;
    expect((await withMail.gql(SAVE, { id, input: daily(placeIds, ["EMAIL", "PUSH"]) }, { token })).data!.saveBriefing.delivery).toEqual([
      "PUSH",
      "EMAIL",
    ]);
    expect((await withMail.gql(SAVE, { id, input: { ...daily(placeIds, null), name: "Renamed" } }, { token })).data!.saveBriefing).toEqual({
      id,
      name: "Renamed",
      delivery: ["PUSH", "EMAIL"],
    });
    // Inbox and email only: the message is not pushed.
    await withMail.gql(SAVE, { id, input: daily(placeIds, ["EMAIL"]) }, { token });
    const quiet = await withMail.api.services.briefings.sendNow(
      (await withMail.api.services.db.selectFrom("briefings").selectAll().where("id", "=", id).executeTakeFirstOrThrow())!,
    );
    expect(await withMail.api.services.push.deliver(quiet)).toBe("off");

    const without = await apis({ now: () => new Date(NOW), fake: weather });
    const other = await without.signUp();
    const otherPlace = [(await without.gql(ADD_PLACE, {}, { token: other })).data!.addPlace.id];
    const refused = await without.gql(SAVE, { input: daily(otherPlace, ["PUSH", "EMAIL"]) }, { token: other });
    expect(codes(refused)).toEqual(["BAD_USER_INPUT"]);
    expect(refused.errors![0]!.extensions).toMatchObject({ field: "delivery", reason: "EMAIL_DELIVERY_UNAVAILABLE" });
    expect((await without.gql(DELIVERY, {}, { token: other })).data!.briefings).toEqual([]);
  });
});

async function freshDir() {
  const dir = await mkdtemp(path.join(tmpdir(), "weatherbot-mail-"));
  dirs.push(dir);
  return dir;
}

/** A copy of a seeded store: its data directory (SQLite's file is in it) and its PostgreSQL database. */
async function copyStore(from: EngineStore): Promise<EngineStore> {
  const dataDir = await freshDir();
  await cp(from.dataDir, dataDir, { recursive: true });
  return { dataDir, databaseUrl: from.databaseUrl && (await copyTestDatabase(from.databaseUrl)) };
}

const mailEnv = () => ({ TEST_SMTP_URL: smtp.url, TEST_MAIL_LEASE_MS: String(MAIL_LEASE_MS) });

/** One engine pass in a child that sends mail; killed with SIGKILL once `killWhen` holds, if given (checked as it runs). */
function pass(store: EngineStore, killWhen?: { afterReadyMs?: number; mailHeld?: boolean }): Promise<"done" | "killed"> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", ENGINE_ENTRY, store.dataDir, weather.url, NOW], {
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, DATABASE_URL: store.databaseUrl ?? "", ...warningsEnv(weather.url), ...mailEnv() },
    });
    let output = "";
    const kill = () => child.kill("SIGKILL");
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (killWhen?.afterReadyMs !== undefined && output.includes("ready")) setTimeout(kill, killWhen.afterReadyMs).unref();
    });
    // Killed while the SMTP server holds a mail of its unanswered: in the middle of sending.
    if (killWhen?.mailHeld) void smtp.waitUntil(() => smtp.held() > 0, 60_000).then(kill, kill);
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (signal === "SIGKILL") resolve("killed");
      else if (code === 0 && output.includes("done")) resolve("done");
      else reject(new Error(`engine process exited with ${code ?? signal}: ${output}`));
    });
  });
}

/** The mail the seeded users got: "address|subject", sorted (duplicates kept, to be seen). */
const seededMail = (domain: string) =>
  smtp.mails
    .filter((mail) => mail.to[0]!.endsWith(domain))
    .map((mail) => `${mail.to[0]}|${mail.subject}`)
    .sort();

const expectedMail = (domain: string) =>
  Array.from({ length: USERS }, (_, u) => [`k${u}@${domain}|B0 · Today`, `k${u}@${domain}|B1 · Today`])
    .flat()
    .sort();

/** Seeds users whose two briefings each are emailed, at `domain` (so each test's mail is its own). */
async function seededStore(domain: string): Promise<EngineStore> {
  const store = { dataDir: await freshDir(), databaseUrl: await testDatabaseUrl() };
  await seedEngineWork(store, weather.url, NOW, USERS, { delivery: "EMAIL" });
  const api = await openApi(store, weather.url, NOW);
  try {
    const users = await api.services.db.selectFrom("users").select(["id", "email"]).execute();
    for (const user of users) {
      await api.services.db
        .updateTable("users")
        .set({ email: user.email.replace("kill.example", domain) })
        .where("id", "=", user.id)
        .execute();
    }
  } finally {
    await api.close();
  }
  return store;
}

async function outboxStates(store: EngineStore) {
  const api = await openApi(store, weather.url, NOW);
  try {
    return await api.services.db.selectFrom("mail_outbox").select(["state"]).execute();
  } finally {
    await api.close();
  }
}

describe("email briefings across processes", () => {
  it("are mailed exactly once when the engine is killed with SIGKILL mid-pass and mid-send", async () => {
    const domain = `killed-${Date.now()}.example`;
    const store = await copyStore(await seededStore(domain));
    // Nothing is accepted while the kills happen: a mail is read but not answered, and dropped when its sender dies.
    smtp.hold();
    const kills = [await pass(store, { afterReadyMs: 40 }), await pass(store, { mailHeld: true })];
    expect(kills[1]).toBe("killed");
    // Its exit can be heard before its connection's end: the server drops what it held once it sees the end.
    await smtp.waitUntil(() => smtp.held() === 0);
    expect(seededMail(domain)).toEqual([]);
    smtp.release();
    // A pass that finishes: what is left, and the mail the killed ones held once their leases run out.
    expect(await pass(store)).toBe("done");
    expect(seededMail(domain)).toEqual(expectedMail(domain));
    const states = await outboxStates(store);
    expect(states).toHaveLength(USERS * 2);
    expect(states.every((row) => row.state === "SENT")).toBe(true);
  }, 120_000);

  it("are mailed exactly once when two engine instances share the tick", async () => {
    const domain = `shared-${Date.now()}.example`;
    const store = await copyStore(await seededStore(domain));
    const pair = ["mail-A", "mail-B"].map((id) => startEngineInstance(store, weather.url, NOW, { id, leaseMs: 60_000, env: mailEnv() }));
    try {
      await Promise.all(pair.map((instance) => instance.ready()));
      for (const instance of pair) instance.tick(1);
      const reports = await Promise.all(pair.map((instance) => instance.passed(1)));
      expect(reports.reduce((sum, report) => sum + report.briefings, 0)).toBe(USERS * 2);
      await smtp.waitUntil(() => seededMail(domain).length >= USERS * 2, 60_000);
      // Nothing is left to send: no copy can come later.
      const states = await outboxStates(store);
      expect(states.filter((row) => row.state !== "SENT")).toEqual([]);
      expect(seededMail(domain)).toEqual(expectedMail(domain));
    } finally {
      await Promise.all(pair.map((instance) => instance.stop()));
    }
  }, 120_000);
});
