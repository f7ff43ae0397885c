import { describe, expect, it } from "vitest";
import { createPushBatch } from "~/api/bot/push-batch.server";
import type { MessageTable } from "~/api/db/tables";

const row = (id: string) => ({ id, user_id: "u" }) as MessageTable;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe("the push batch", () => {
  it("sends what one burst publishes together, and what a held pass publishes when it lets go", async () => {
    const sent: string[][] = [];
    const batch = createPushBatch(async (rows) => void sent.push(rows.map((r) => r.id)));
    batch.add(row("a"));
    batch.add(row("b"));
    await nextTurn();
    expect(sent).toEqual([["a", "b"]]);

    const release = batch.hold();
    batch.add(row("c"));
    await nextTurn();
    batch.add(row("d"));
    await nextTurn();
    expect(sent).toHaveLength(1);
    release();
    release(); // once only
    expect(sent).toEqual([
      ["a", "b"],
      ["c", "d"],
    ]);
  });

  it("sends what waits when settling (the API closing), and waits for sends under way", async () => {
    let finish = () => {};
    const sent: string[] = [];
    const batch = createPushBatch(
      (rows) => new Promise<void>((resolve) => (finish = () => (sent.push(...rows.map((r) => r.id)), resolve()))),
    );
    batch.hold();
    batch.add(row("e"));
    let settled = false;
    const settling = batch.settled().then(() => (settled = true));
    await nextTurn();
    expect(settled).toBe(false);
    finish();
    await settling;
    expect(sent).toEqual(["e"]);
  });
});
