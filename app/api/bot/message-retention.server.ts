import { setImmediate as yieldToTick } from "node:timers/promises";
import type { Db } from "../db/database.server";

/** Messages are kept this long unless MESSAGE_RETENTION_DAYS says otherwise. */
export const MESSAGE_RETENTION_DAYS = 90;

const DAY_MS = 86_400_000;

/**
 * Removes messages older than the retention window, oldest first, `batch` at a time with a turn of the event
 * loop between batches: a backlog of millions (the first sweep on an old database) never holds a tick or a
 * request up for long, and held pushes of removed messages go with them (the foreign key cascades).
 */
export function createMessageRetention({
  db,
  now,
  days = MESSAGE_RETENTION_DAYS,
  batch = 1000,
}: {
  db: Db;
  now: () => Date;
  days?: number;
  batch?: number;
}) {
  let running: Promise<number> | null = null;

  async function sweep(): Promise<number> {
    const cutoff = new Date(now().getTime() - days * DAY_MS).toISOString();
    let removed = 0;
    for (;;) {
      const rows = await db
        .selectFrom("messages")
        .select("id")
        .where("created_at", "<", cutoff)
        .orderBy("created_at")
        .limit(batch)
        .execute();
      if (rows.length === 0) return removed;
      await db
        .deleteFrom("messages")
        .where(
          "id",
          "in",
          rows.map((row) => row.id),
        )
        .execute();
      removed += rows.length;
      if (rows.length < batch) return removed;
      await yieldToTick();
    }
  }

  return {
    /** Removes every message past the window; resolves with how many. */
    sweep,
    /** Starts a sweep unless one is under way (the engine does not wait for it); the sweep under way is returned. */
    start(): Promise<number> {
      running ??= sweep().finally(() => (running = null));
      return running;
    },
  };
}

export type MessageRetention = ReturnType<typeof createMessageRetention>;
