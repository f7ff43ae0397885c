import type { Exchange, OperationResult } from "@urql/core";
import { fromValue, make, mergeMap, pipe } from "wonka";

/**
 * Holds what comes back from the network (query and mutation results, a subscription's events) until `ready`
 * settles, then lets it through in the order it came; nothing is held after. In the browser `ready` is the whole
 * page's hydration (page-hydration.ts): the cache a part still waiting to hydrate reads must hold what the server
 * rendered it from. Placed after the ssr exchange, so the server's results restored for hydration pass at once.
 */
export function holdResultsUntil(ready: Promise<void>): Exchange {
  let open = false;
  const held: Array<() => void> = [];
  // Opened and released in one step: nothing that comes after can pass what was held.
  void ready.then(() => {
    open = true;
    for (const release of held.splice(0)) release();
  });
  const heldUntilReady = (result: OperationResult) =>
    make<OperationResult>((observer) => {
      held.push(() => {
        observer.next(result);
        observer.complete();
      });
      return () => undefined;
    });
  return ({ forward }) =>
    (operations$) =>
      pipe(
        forward(operations$),
        mergeMap((result) => (open ? fromValue(result) : heldUntilReady(result))),
      );
}
