import type { Exchange, Operation } from "@urql/core";
import { filter, makeSubject, merge, pipe } from "wonka";

/**
 * Holds mutations back until `ready` settles, then lets them through in the order they were
 * made; every other operation passes at once, and once released nothing is held again.
 * Graphcache's offline exchange keeps a mutation that fails offline only after it has read
 * its store: placed before it, this makes a mutation made in between wait instead of being
 * refused. The release runs after `ready`'s own callbacks (graphcache finishes reading, and
 * flushes the queue earlier pages kept, in the same task that settles it), so mutations
 * kept before come first.
 */
export function holdMutationsUntil(ready: PromiseLike<unknown>): Exchange {
  return ({ forward }) =>
    (operations$) => {
      const released = makeSubject<Operation>();
      const held: Operation[] = [];
      let open = false;
      const release = () => {
        // One made while releasing (a result's subscriber may make one) joins the end of the line.
        for (let next = held.shift(); next; next = held.shift()) released.next(next);
        open = true;
      };
      ready.then(release, release);
      const passing$ = pipe(
        operations$,
        filter((operation) => {
          if (open || operation.kind !== "mutation") return true;
          held.push(operation);
          return false;
        }),
      );
      return forward(merge([passing$, released.source]));
    };
}
