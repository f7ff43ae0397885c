import { Client, createRequest, makeOperation, type Operation, type OperationType } from "@urql/core";
import type { DocumentNode } from "graphql";
import { empty, makeSubject, mergeMap, onPush, pipe, publish } from "wonka";
import { describe, expect, it } from "vitest";
import { holdMutationsUntil } from "~/lib/graphql/hold-mutations";
import { MESSAGE_RECEIVED_SUBSCRIPTION, RENAME_PLACE_MUTATION, VIEWER_QUERY } from "~/lib/graphql/documents";

const client = new Client({ url: "http://127.0.0.1:9/graphql", exchanges: [] });

const DOCUMENTS = { mutation: RENAME_PLACE_MUTATION, query: VIEWER_QUERY, subscription: MESSAGE_RECEIVED_SUBSCRIPTION };

/** An operation told apart by its `label` variable. */
function operation(kind: Exclude<OperationType, "teardown">, label: string): Operation {
  return client.createRequestOperation(kind, createRequest(DOCUMENTS[kind] as DocumentNode, { label }));
}

const labelOf = (operation: Operation) => (operation.variables as { label: string }).label;

/** What the gate lets through to the exchanges after it, by label (teardowns as `teardown:label`). */
function gate(ready: PromiseLike<unknown>, onForward: (operation: Operation) => void = () => {}) {
  const operations = makeSubject<Operation>();
  const forwarded: string[] = [];
  const exchange = holdMutationsUntil(ready)({
    client,
    dispatchDebug: () => {},
    forward: (operations$) =>
      pipe(
        operations$,
        onPush((operation) => {
          const label = labelOf(operation);
          forwarded.push(operation.kind === "teardown" ? `teardown:${label}` : label);
          onForward(operation);
        }),
        mergeMap(() => empty),
      ),
  });
  pipe(exchange(operations.source), publish);
  return { make: (operation: Operation) => operations.next(operation), forwarded };
}

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe("holdMutationsUntil", () => {
  it("holds mutations until the store has been read and then lets them through in the order they were made; queries pass at once", async () => {
    const read = deferred();
    const { make, forwarded } = gate(read.promise);
    make(operation("mutation", "first"));
    make(operation("query", "inbox"));
    make(operation("mutation", "second"));
    make(operation("subscription", "live"));
    expect(forwarded).toEqual(["inbox", "live"]);

    read.resolve();
    await read.promise;
    expect(forwarded).toEqual(["inbox", "live", "first", "second"]);
  });

  it("holds nothing once the store has been read", async () => {
    const read = deferred();
    const { make, forwarded } = gate(read.promise);
    read.resolve();
    await read.promise;
    make(operation("mutation", "later"));
    expect(forwarded).toEqual(["later"]);
  });

  it("a mutation made while the held ones are let through comes after them", async () => {
    const read = deferred();
    let makeAgain = (_: Operation) => {};
    const { make, forwarded } = gate(read.promise, (forwardedOperation) => {
      if (labelOf(forwardedOperation) === "first") makeAgain(operation("mutation", "made meanwhile"));
    });
    makeAgain = make;
    make(operation("mutation", "first"));
    make(operation("mutation", "second"));

    read.resolve();
    await read.promise;
    expect(forwarded).toEqual(["first", "second", "made meanwhile"]);
  });

  it("teardowns pass while mutations are held", () => {
    const { make, forwarded } = gate(new Promise(() => {}));
    const query = operation("query", "inbox");
    make(operation("mutation", "held"));
    make(query);
    make(makeOperation("teardown", query));
    expect(forwarded).toEqual(["inbox", "teardown:inbox"]);
  });

  it("a store that could not be read holds nothing back either", async () => {
    const read = deferred();
    const { make, forwarded } = gate(read.promise);
    make(operation("mutation", "first"));
    read.reject(new Error("IndexedDB unavailable"));
    await read.promise.catch(() => {});
    expect(forwarded).toEqual(["first"]);
  });
});
