import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createInbox } from "~/api/bot/inbox.server";
import type { MessageStream } from "~/api/bot/message-stream";
import { openDatabase, type Db } from "~/api/db/database.server";
import { timeOrderedLowerBound } from "~/shared/live-cursor";

/**
 * Two inboxes on one database stand for two instances. A message this instance writes must
 * not overtake one another instance committed before it: a subscriber that saw the later one
 * and reconnects with `after` = its id would never get the earlier one.
 */
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function database(): Promise<Db> {
  const dir = await mkdtemp(path.join(tmpdir(), "weatherbot-inbox-order-"));
  const { db } = await openDatabase(path.join(dir, "weatherbot.sqlite"));
  closers.push(async () => {
    await db.destroy();
    await rm(dir, { recursive: true, force: true });
  });
  return db;
}

function drain(stream: MessageStream) {
  const ids: string[] = [];
  void (async () => {
    for await (const row of stream) ids.push(row.id);
  })();
  return ids;
}

describe("inbox: live messages of several instances", () => {
  it("delivers a message written here after one another instance committed before it, never before", async () => {
    const db = await database();
    const now = () => new Date();
    await db
      .insertInto("users")
      .values({ id: "u1", email: "u1@example.com", password_hash: "x", created_at: now().toISOString() })
      .execute();
    const here = createInbox(db, now);
    const elsewhere = createInbox(db, now);
    // A follower that looks rarely: only what publishing asks for brings the other instance's message in time.
    const stopFollowing = here.follow(3_600_000);
    closers.push(stopFollowing);
    await stopFollowing.ready;
    const received = drain(here.subscribe("u1", timeOrderedLowerBound(Date.now() - 1000)));
    const message = (n: number) => ({ userId: "u1", kind: "SYSTEM" as const, title: `m${n}`, body: "", dedupeKey: `order:${n}` });

    const first = (await elsewhere.write(message(1)))!;
    const second = (await here.write(message(2)))!;
    here.publish(second);
    expect(first.id < second.id).toBe(true);
    await vi.waitFor(() => expect(received).toEqual([first.id, second.id]), { timeout: 5_000, interval: 10 });
  });
});
