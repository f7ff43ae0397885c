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

export function createMessageStream(onClose: () => void): MessageStream {
  let buffer: MessageTable[] = [];
  let waiting: ((result: IteratorResult<MessageTable>) => void) | null = null;
  let closed = false;

  const done = (): IteratorResult<MessageTable> => ({ value: undefined, done: true });

  function deliver() {
    if (!waiting || buffer.length === 0) return;
    const resolve = waiting;
    waiting = null;
    resolve({ value: buffer.shift()!, done: false });
  }

  const stream: MessageStream = {
    push(row) {
      if (closed) return;
      buffer.push(row);
      deliver();
    },
    replay(rows) {
      if (closed || rows.length === 0) return;
      const replayed = new Set(rows.map((row) => row.id));
      buffer = [...rows, ...buffer.filter((row) => !replayed.has(row.id))];
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
