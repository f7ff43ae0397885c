import { apiError } from "../errors.server";

/**
 * Password hashes that may run at once, and wait for a turn. scrypt runs on libuv's
 * thread pool (4 threads unless UV_THREADPOOL_SIZE says otherwise), which file reads,
 * DNS lookups and zlib share: a flood of log-ins must leave threads to them, and CPU
 * to the event loop, so other requests stay fast.
 */
export const HASH_SLOTS = { running: 2, waiting: 4 } as const;

export type HashSlots = {
  /** Runs `work` when a slot is free; throws RATE_LIMITED at once when all slots and places in line are taken. */
  run<T>(work: () => Promise<T>): Promise<T>;
};

export function createHashSlots({ running, waiting }: { running: number; waiting: number } = HASH_SLOTS): HashSlots {
  let active = 0;
  const queue: Array<() => void> = [];

  function release() {
    const next = queue.shift();
    if (next) next();
    else active--;
  }

  return {
    async run(work) {
      if (active >= running) {
        if (queue.length >= waiting) {
          throw apiError("RATE_LIMITED", "The server is busy checking passwords; try again in a moment", {
            retryAfterSeconds: 1,
            reason: "BUSY",
          });
        }
        // The slot passes straight from the one finishing to the one waiting: `active` stays.
        await new Promise<void>((resolve) => queue.push(resolve));
      } else {
        active++;
      }
      try {
        return await work();
      } finally {
        release();
      }
    },
  };
}
