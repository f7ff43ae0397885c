import type { Exchange, Operation } from "@urql/core";
import { filter, makeSubject, merge, pipe } from "wonka";

/**
 * Holds mutations on their way to the network until `open()`; every other operation passes.
 * Graphcache's offline exchange keeps a mutation that fails offline only once it has read its
 * store, and a fresh page hydrates before that read: placed after it (its optimistic update
 * already shown, so the page sees it and does not send it twice), this makes a mutation made
 * in between wait for the read instead of being refused.
 *
 * `open()` lets everything through at once, and the held mutations after what the current
 * task still sends (graphcache re-sends the queue earlier pages kept right after it reports
 * the store read: those came first), in the order they were made. Nothing is held after.
 */
export function createMutationHold(): { exchange: Exchange; open: () => void } {
  const held: Operation[] = [];
  let state: "holding" | "passing" | "releasing" | "open" = "holding";
  let release = () => {};

  const exchange: Exchange =
    ({ forward }) =>
    (operations$) => {
      const released = makeSubject<Operation>();
      release = () => {
        state = "releasing";
        // One made meanwhile (a subscriber may make one) joins the end of the line.
        for (let next = held.shift(); next; next = held.shift()) released.next(next);
        state = "open";
      };
      const passing$ = pipe(
        operations$,
        filter((operation) => {
          if (operation.kind !== "mutation" || state === "passing" || state === "open") return true;
          held.push(operation);
          return false;
        }),
      );
      return forward(merge([passing$, released.source]));
    };

  return {
    exchange,
    open() {
      if (state !== "holding") return;
      state = "passing";
      queueMicrotask(() => release());
    },
  };
}
