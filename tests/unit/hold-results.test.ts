import { Client, createRequest, makeResult, type Operation, type OperationResult } from "@urql/core";
import type { DocumentNode } from "graphql";
import { makeSubject, pipe, subscribe } from "wonka";
import { describe, expect, it } from "vitest";
import { holdResultsUntil } from "~/lib/graphql/hold-results";
import { MESSAGE_RECEIVED_SUBSCRIPTION } from "~/lib/graphql/documents";

const client = new Client({ url: "http://127.0.0.1:9/graphql", exchanges: [] });
const live = client.createRequestOperation("subscription", createRequest(MESSAGE_RECEIVED_SUBSCRIPTION as DocumentNode, {}));

/** The exchange between operations and a network that answers with what `network.next` pushes; what reaches the cache, by id. */
function holdUntil(ready: Promise<void>) {
  const network = makeSubject<OperationResult>();
  const reached: string[] = [];
  const instance = holdResultsUntil(ready)({ client, dispatchDebug: () => {}, forward: () => network.source });
  pipe(
    instance(makeSubject<Operation>().source),
    subscribe((result) => reached.push((result.data as { messageReceived: { id: string } }).messageReceived.id)),
  );
  const deliver = (id: string) => network.next(makeResult(live, { data: { messageReceived: { id } } }));
  return { deliver, reached };
}

describe("holdResultsUntil (decision 029)", () => {
  it("holds what the network delivers until the page has hydrated, then passes it in the order it came, and later results at once", async () => {
    let hydrated!: () => void;
    const { deliver, reached } = holdUntil(new Promise<void>((resolve) => (hydrated = resolve)));
    deliver("first");
    deliver("second");
    await Promise.resolve();
    expect(reached).toEqual([]);

    hydrated();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(reached).toEqual(["first", "second"]);
    deliver("third");
    expect(reached).toEqual(["first", "second", "third"]);
  });
});
