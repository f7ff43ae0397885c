import type { MessageTable } from "../db/tables";

/**
 * Gathers the messages published together, so their pushes go out as one tick's (see
 * PushService.deliverTogether): while an engine pass holds the batch, until it lets go; otherwise
 * what one burst of publishing wrote (an alert pass publishes all it wrote at once).
 */
export function createPushBatch(send: (rows: MessageTable[]) => Promise<unknown>) {
  let rows: MessageTable[] = [];
  let holds = 0;
  let scheduled = false;
  const sending = new Set<Promise<unknown>>();

  function flush() {
    scheduled = false;
    if (holds > 0 || rows.length === 0) return;
    const taken = rows;
    rows = [];
    const sent = send(taken);
    sending.add(sent);
    void sent.finally(() => sending.delete(sent));
  }

  return {
    add(row: MessageTable) {
      rows.push(row);
      if (holds > 0 || scheduled) return;
      scheduled = true;
      setImmediate(flush);
    },
    /** Holds what is published until the returned function is called (an engine pass: one tick). */
    hold(): () => void {
      holds++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        holds--;
        flush();
      };
    },
    /** Sends what is waiting, then settles once every send under way has. */
    async settled(): Promise<void> {
      holds = 0;
      flush();
      await Promise.allSettled([...sending]);
    },
  };
}

export type PushBatch = ReturnType<typeof createPushBatch>;
