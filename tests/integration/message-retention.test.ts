import { describe, expect, it } from "vitest";
import { createMessageRetention } from "~/api/bot/message-retention.server";
import { testApis } from "../support/api-server";

// Decision 026: messages older than the retention window are removed, oldest first, in batches.
const api = testApis();
const NOW = Date.parse("2026-06-01T12:00:00Z");
const DAY = 86_400_000;

async function withMessages(ages: number[]) {
  const statements: string[] = [];
  const t = await api({ now: () => new Date(NOW), onStatement: (text) => statements.push(text) });
  await t.signUp();
  const { db } = t.api.services;
  const { id: userId } = await db.selectFrom("users").select("id").executeTakeFirstOrThrow();
  await db
    .insertInto("messages")
    .values(
      ages.map((days, index) => ({
        id: `m${String(index).padStart(3, "0")}`,
        user_id: userId,
        kind: "BRIEFING",
        title: `${days} days old`,
        body: "-",
        created_at: new Date(NOW - days * DAY).toISOString(),
        read_at: null,
        urgent: 0,
        place_id: null,
        briefing_id: null,
        dedupe_key: `retention:${index}`,
        alert_rule_id: null,
        match_json: null,
        content: null,
      })),
    )
    .execute();
  const titles = async () => (await db.selectFrom("messages").select("title").orderBy("created_at").execute()).map((row) => row.title);
  return { t, db, statements, titles };
}

describe("message retention", () => {
  it("removes the messages older than the window in batches, and keeps the rest", async () => {
    const { db, statements, titles } = await withMessages([400, 200, 120, 91, 89, 30, 0]);
    const retention = createMessageRetention({ db, now: () => new Date(NOW), days: 90, batch: 2 });
    statements.length = 0;
    expect(await retention.sweep()).toBe(4);
    expect(await titles()).toEqual(["89 days old", "30 days old", "0 days old"]);
    // Two at a time: three rounds of reading the oldest, two of them full.
    expect(statements.filter((text) => /^delete from "messages"/i.test(text))).toHaveLength(2);
    expect(await retention.sweep()).toBe(0);
  });

  it("runs in the background after each engine pass, with the default window of 90 days", async () => {
    const { t, titles } = await withMessages([365, 95, 90.5, 89.9, 1]);
    await t.api.engine.pass(1);
    await t.api.engine.settled();
    expect(await titles()).toEqual(["89.9 days old", "1 days old"]);
  });
});
