import type { MessageTable } from "../db/tables";

/**
 * One subscriber's live messages: an async iterator that buffers what is pushed
 * while nobody is waiting. Written by hand rather than as an async generator so that
 * `return()` (the client unsubscribed) takes effect at once, even while a `next()` is
 * pending, instead of after the next message.
 */
export type MessageStream = AsyncIterableIterator<MessageTable> & {
  push(row: MessageTable): void;
  /** Puts missed messages in front of what arrived live since the stream opened, each once. */
  replay(rows: MessageTable[]): void;
};

/** How many recent message ids a stream remembers, to take each message once. */
const SEEN_IDS = 1000;

/**
 * `after`: the newest message id the subscriber already has (or a lower bound for "from
 * now on"): anything at or before it is not delivered live, only through a catch-up.
 */
export function createMessageStream(onClose: () => void, after: string): MessageStream {
  let buffer: MessageTable[] = [];
  let waiting: ((result: IteratorResult<MessageTable>) => void) | null = null;
  let closed = false;
  // A message can reach a stream twice: published by the process that wrote it, then
  // found again by the follower that reads every process's writes (or by a catch-up).
  const seen = new Set<string>();
  const remember = (id: string) => {
    seen.add(id);
    if (seen.size > SEEN_IDS) seen.delete(seen.values().next().value!);
  };

  const done = (): IteratorResult<MessageTable> => ({ value: undefined, done: true });

  function deliver() {
    if (!waiting || buffer.length === 0) return;
    const resolve = waiting;
    waiting = null;
    resolve({ value: buffer.shift()!, done: false });
  }

  const stream: MessageStream = {
    push(row) {
      if (closed || seen.has(row.id) || row.id <= after) return;
      remember(row.id);
      buffer.push(row);
      deliver();
    },
    replay(rows) {
      if (closed) return;
      // Missed messages go first, in their order, before what arrived live since the
      // stream opened; those already delivered are not delivered again.
      const buffered = new Set(buffer.map((row) => row.id));
      const missed = rows.filter((row) => buffered.has(row.id) || !seen.has(row.id));
      if (missed.length === 0) return;
      for (const row of missed) remember(row.id);
      const replayed = new Set(missed.map((row) => row.id));
      buffer = [...missed, ...buffer.filter((row) => !replayed.has(row.id))];
      deliver();
    },
    next() {
      if (buffer.length > 0) return Promise.resolve({ value: buffer.shift()!, done: false });
      if (closed) return Promise.resolve(done());
      return new Promise((resolve) => (waiting = resolve));
    },
    return() {
      if (!closed) {
        closed = true;
        buffer = [];
        onClose();
        waiting?.(done());
        waiting = null;
      }
      return Promise.resolve(done());
    },
    throw(error?: unknown) {
      void stream.return!();
      return Promise.reject(error);
    },
    [Symbol.asyncIterator]() {
      return stream;
    },
  };
  return stream;
}
