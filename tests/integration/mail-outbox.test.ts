import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import type { MailKind } from "~/api/mail/outbox.server";
import { startFakeSmtp, type FakeSmtp } from "../fakes/smtp";
import { testApis, type TestApi } from "../support/api-server";
import { testDatabaseUrl } from "../support/test-database";

/*
 * The mail outbox against a real SMTP server on loopback: a queued mail goes out once, as a
 * multipart mail From MAIL_FROM; a 4xx is tried again until it goes through, a 5xx is given up;
 * what waits in the outbox is sealed; two instances on one database send each mail once.
 */
let smtp: FakeSmtp;
beforeAll(async () => {
  smtp = await startFakeSmtp();
});
afterAll(() => smtp.close());
afterEach(() => {
  smtp.release();
  smtp.failNext(0);
});

const api = testApis();

let counter = 0;
/** The id of the account with address `to` (signed up the first time): every mail is some account's. */
async function accountOf(test: TestApi, to: string): Promise<string> {
  const { db } = test.api.services;
  const find = () => db.selectFrom("users").select("id").where("email", "=", to).executeTakeFirst();
  const found = (await find()) ?? (await test.signUp(to), await find());
  return found!.id;
}

/** Queues one mail through `test`'s outbox, committed, and wakes its sender. */
async function queue(test: TestApi, to: string, kind: MailKind = "BRIEFING", dedupeKey = `test:${++counter}:${Date.now()}`) {
  const { db, mail } = test.api.services;
  const userId = await accountOf(test, to);
  const queued = await db.transaction().execute((trx) =>
    mail.enqueue(trx, {
      kind,
      dedupeKey,
      userId,
      validForMs: 3_600_000,
      mail: { to, subject: `Hello ${to}`, text: `Plain words for ${to}`, html: `<p>HTML words for ${to}</p>` },
    }),
  );
  mail.nudge();
  return queued;
}

const outboxRows = (test: TestApi) => test.api.services.db.selectFrom("mail_outbox").selectAll().orderBy("created_at").execute();

describe("the mail outbox", () => {
  it("sends a queued mail once: multipart, From MAIL_FROM, to its recipient, its outbox row sealed and then emptied", async () => {
    const test = await api({ mail: { smtpUrl: smtp.url } });
    const to = `first-${Date.now()}@example.com`;
    expect(await queue(test, to, "BRIEFING", `once:${to}`)).toBe(true);
    // The same key again is the same mail: nothing more is queued.
    expect(await queue(test, to, "BRIEFING", `once:${to}`)).toBe(false);

    const mail = await smtp.waitForMail((received) => received.to.includes(to));
    expect(mail.from).toBe("bot@weatherbot.test");
    expect(mail.headers.from).toBe("Weatherbot <bot@weatherbot.test>");
    expect(mail.subject).toBe(`Hello ${to}`);
    expect(mail.text.trim()).toBe(`Plain words for ${to}`);
    expect(mail.html).toContain(`<p>HTML words for ${to}</p>`);
    expect(mail.headers["content-type"]).toMatch(/^multipart\/alternative/);
    expect(mail.messageId).toMatch(/^<[0-9a-f-]+@weatherbot\.test>$/);

    await test.api.services.mail.flush();
    const rows = (await outboxRows(test)).filter((row) => row.dedupe_key === `once:${to}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: "SENT", attempts: 1, payload: "", kind: "BRIEFING" });
    expect(smtp.mails.filter((received) => received.to.includes(to))).toHaveLength(1);
  });

  it("keeps what waits sealed: neither the recipient nor the words are readable in the database", async () => {
    // No sender may take it before the test reads it: the server holds every mail unanswered.
    const test = await api({ mail: { smtpUrl: smtp.url, pollMs: 60_000 } });
    smtp.hold();
    const to = `sealed-${Date.now()}@example.com`;
    await queue(test, to);
    const [row] = await outboxRows(test);
    expect(row!.state).toBe("PENDING");
    expect(row!.payload).not.toContain(to);
    expect(row!.payload).not.toContain("Plain words");
    smtp.release();
    await smtp.waitForMail((received) => received.to.includes(to));
  });

  it("tries a mail again after 4xx replies until the server takes it, and gives up on a 5xx", async () => {
    const test = await api({ mail: { smtpUrl: smtp.url } });
    const refusedBefore = smtp.refused();
    smtp.failNext(2, 451);
    const to = `retry-${Date.now()}@example.com`;
    await queue(test, to, "PASSWORD_RESET");
    const mail = await smtp.waitForMail((received) => received.to.includes(to));
    expect(mail.subject).toBe(`Hello ${to}`);
    expect(smtp.refused() - refusedBefore).toBe(2);
    await test.api.services.mail.flush();
    const [sent] = await outboxRows(test);
    expect(sent).toMatchObject({ state: "SENT", attempts: 3 });
    expect(sent!.last_error).toContain("451");

    smtp.failNext(1, 550);
    const refused = `refused-${Date.now()}@example.com`;
    await queue(test, refused);
    await smtp.waitUntil(() => smtp.refused() - refusedBefore === 3);
    await test.api.services.mail.flush();
    const given = (await outboxRows(test)).find((row) => row.state !== "SENT");
    expect(given).toMatchObject({ state: "FAILED", attempts: 1, payload: "" });
    expect(given!.last_error).toContain("550");
    expect(smtp.mails.some((received) => received.to.includes(refused))).toBe(false);
  });

  it("keeps a mail when the SMTP server cannot be reached, and sends it once it can", async () => {
    // Its port, with nobody listening there for now: connection refused, which is temporary.
    const later = await startFakeSmtp();
    await later.close();
    const test = await api({ mail: { smtpUrl: later.url, retry: { baseMs: 500, maxMs: 500, attempts: 20 } } });
    const to = `unreachable-${Date.now()}@example.com`;
    await queue(test, to);
    await test.api.services.mail.flush();
    const [row] = await outboxRows(test);
    expect(row).toMatchObject({ state: "PENDING", attempts: 1 });
    expect(row!.last_error).toContain("ECONNREFUSED");

    const back = await startFakeSmtp({ port: later.port });
    try {
      const mail = await back.waitForMail((received) => received.to.includes(to));
      expect(mail.subject).toBe(`Hello ${to}`);
      await test.api.services.mail.flush();
      expect((await outboxRows(test))[0]).toMatchObject({ state: "SENT" });
      expect(back.mails).toHaveLength(1);
    } finally {
      await test.close();
      await back.close();
    }
  });

  it("lets a shutdown cut off a send the server does not answer, and keeps that mail for a later attempt", async () => {
    // One store for both instances, one after the other (an API's own would go with it).
    const dataDir = await mkdtemp(path.join(tmpdir(), "weatherbot-cut-off-"));
    onTestFinished(() => rm(dataDir, { recursive: true, force: true }));
    const store = { dataDir, databaseUrl: await testDatabaseUrl() };
    const first = await api({ ...store, mail: { smtpUrl: smtp.url } });
    smtp.hold();
    const to = `cut-off-${Date.now()}@example.com`;
    await queue(first, to);
    await smtp.waitUntil(() => smtp.held() > 0);
    const started = Date.now();
    await first.close();
    expect(Date.now() - started).toBeLessThan(8_000);
    await smtp.waitUntil(() => smtp.held() === 0);
    smtp.release();

    // Still to be sent: the next instance on the database sends it once.
    // (Its row is not read before: the next instance claims it as it starts.)
    const next = await api({ ...store, mail: { smtpUrl: smtp.url } });
    await smtp.waitForMail((received) => received.to.includes(to));
    await next.api.services.mail.flush();
    expect((await outboxRows(next))[0]).toMatchObject({ state: "SENT", attempts: 2 });
    expect(smtp.mails.filter((received) => received.to.includes(to))).toHaveLength(1);
  });

  it("sends each mail once when two instances on one database send at the same time", async () => {
    const first = await api({ mail: { smtpUrl: smtp.url, pollMs: 60_000 } });
    const second = await api({ dataDir: first.dataDir, databaseUrl: first.databaseUrl, mail: { smtpUrl: smtp.url, pollMs: 60_000 } });
    const batch = `pair-${Date.now()}`;
    smtp.hold();
    for (let i = 0; i < 30; i++) await queue(i % 2 ? first : second, `${batch}-${i}@example.com`);
    await smtp.waitUntil(() => smtp.held() > 0);
    smtp.release();
    await Promise.all([first.api.services.mail.flush(), second.api.services.mail.flush()]);
    await smtp.waitUntil(() => smtp.mails.filter((mail) => mail.to[0]!.startsWith(batch)).length >= 30);
    const sent = smtp.mails.filter((mail) => mail.to[0]!.startsWith(batch)).map((mail) => mail.to[0]);
    expect(sent.sort()).toEqual(Array.from({ length: 30 }, (_, i) => `${batch}-${i}@example.com`).sort());
    const rows = await outboxRows(first);
    expect(rows.every((row) => row.state === "SENT" && row.attempts === 1)).toBe(true);
  });
  it("sends a mail once when its sender is slow: a claim's lease covers only the mail being sent", async () => {
    // Short leases, and no looks but those the test asks for, so who claims what is up to the test.
    const mail = { smtpUrl: smtp.url, pollMs: 60_000, leaseMs: 5_000 };
    const first = await api({ mail });
    const second = await api({ dataDir: first.dataDir, databaseUrl: first.databaseUrl, mail });
    const batch = `slow-${Date.now()}`;
    const recipients = [0, 1, 2].map((i) => `${batch}-${i}@example.com`);
    const userId = await accountOf(first, recipients[0]!);
    smtp.hold();
    // Three mails due together, so one look of the first instance finds them all.
    await first.api.services.db.transaction().execute(async (trx) => {
      for (const to of recipients) {
        const words = { subject: `Hello ${to}`, text: `Plain words for ${to}`, html: `<p>${to}</p>` };
        await first.api.services.mail.enqueue(trx, {
          kind: "BRIEFING",
          dedupeKey: `${to}`,
          userId,
          validForMs: 3_600_000,
          mail: { to, ...words },
        });
      }
    });
    first.api.services.mail.nudge();
    await smtp.waitUntil(() => smtp.held() === 1);
    // The first mail's send outlasts every lease taken with it (the server answers late).
    const leases = (await outboxRows(first)).filter((row) => row.lease_until !== null).map((row) => Date.parse(String(row.lease_until)));
    expect(leases.length).toBeGreaterThan(0);
    await waitForWallClockPast(Math.max(...leases));
    smtp.releaseOne();
    await smtp.waitUntil(() => smtp.mails.length > 0 && smtp.held() === 1);
    // The second instance looks now: the first is sending the second mail, under a lease of its own.
    const secondLook = second.api.services.mail.flush();
    await smtp.waitUntil(() => smtp.held() === 2);
    smtp.release();
    await Promise.all([secondLook, first.api.services.mail.flush(), second.api.services.mail.flush()]);
    const sent = smtp.mails.filter((received) => received.to[0]!.startsWith(batch)).map((received) => received.to[0]);
    expect(sent.sort()).toEqual([...recipients].sort());
  });
});

/** Resolves once the wall clock has passed `ms` (a lease's end), looking every 100 ms. */
async function waitForWallClockPast(ms: number): Promise<void> {
  while (Date.now() <= ms) await new Promise((resolve) => setTimeout(resolve, Math.min(100, ms - Date.now() + 1)));
}
