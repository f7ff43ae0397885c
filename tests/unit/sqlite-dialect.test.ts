import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "~/api/db/database.server";
import { FifoLock } from "~/api/db/sqlite-dialect.server";

describe("FifoLock", () => {
  it("is held by one at a time and handed on in the order asked", async () => {
    const lock = new FifoLock();
    const order: string[] = [];
    await lock.acquire();
    const waiters = ["a", "b", "c"].map((name) => lock.acquire().then(() => order.push(name)));
    expect(lock.waiting).toBe(3);
    await Promise.resolve();
    expect(order).toEqual([]);
    lock.release();
    await waiters[0];
    expect(order).toEqual(["a"]);
    expect(lock.waiting).toBe(2);
    lock.release();
    lock.release();
    await Promise.all(waiters);
    expect(order).toEqual(["a", "b", "c"]);
    lock.release();
    // Free again: the next one gets it at once.
    await lock.acquire();
  });
});

describe("the SQLite database's one connection", () => {
  it("is not shared with other queries while a transaction holds it", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "weatherbot-dialect-"));
    const { db } = await openDatabase(path.join(dir, "test.sqlite"));
    try {
      const created = new Date().toISOString();
      const countUsers = async () =>
        (
          await db
            .selectFrom("users")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n;
      let insideWritten!: () => void;
      const written = new Promise<void>((resolve) => (insideWritten = resolve));
      const failing = db.transaction().execute(async (trx) => {
        await trx.insertInto("users").values({ id: "u1", email: "one@example.com", password_hash: "-", created_at: created }).execute();
        insideWritten();
        await new Promise((resolve) => setTimeout(resolve, 50));
        throw new Error("rolled back");
      });
      await written;
      // Asked while the transaction holds the connection: these wait for it, in order, and
      // see nothing it wrote and then undid.
      const seen = await Promise.all(Array.from({ length: 20 }, countUsers));
      await expect(failing).rejects.toThrow("rolled back");
      expect(seen).toEqual(Array.from({ length: 20 }, () => 0));
      expect(await countUsers()).toBe(0);
    } finally {
      await db.destroy();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
