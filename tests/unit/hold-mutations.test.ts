import { Client, createRequest, makeOperation, type Operation, type OperationType } from "@urql/core";
import type { DocumentNode } from "graphql";
import { empty, makeSubject, mergeMap, onPush, pipe, publish } from "wonka";
import { describe, expect, it } from "vitest";
import { createMutationHold } from "~/lib/graphql/hold-mutations";
import { MESSAGE_RECEIVED_SUBSCRIPTION, VIEWER_QUERY } from "~/lib/graphql/documents";
import { RENAME_PLACE_MUTATION } from "~/lib/graphql/later-documents";

const client = new Client({ url: "http://127.0.0.1:9/graphql", exchanges: [] });

const DOCUMENTS = { mutation: RENAME_PLACE_MUTATION, query: VIEWER_QUERY, subscription: MESSAGE_RECEIVED_SUBSCRIPTION };

/** An operation told apart by its `label` variable. */
function operation(kind: Exclude<OperationType, "teardown">, label: string): Operation {
  return client.createRequestOperation(kind, createRequest(DOCUMENTS[kind] as DocumentNode, { label }));
}

const labelOf = (operation: Operation) => (operation.variables as { label: string }).label;

/** What the hold lets through to the exchanges after it, by label (teardowns as `teardown:label`). */
function hold(onForward: (operation: Operation) => void = () => {}) {
  const operations = makeSubject<Operation>();
  const forwarded: string[] = [];
  const { exchange, open } = createMutationHold();
  const instance = exchange({
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
  pipe(instance(operations.source), publish);
  return { make: (operation: Operation) => operations.next(operation), open, forwarded };
}

/** What open() releases goes on once the current task's own work is done. */
const afterThisTask = () => Promise.resolve();

describe("createMutationHold", () => {
  it("holds mutations until the store has been read, then lets them through in the order they were made; queries and subscriptions pass at once", async () => {
    const { make, open, forwarded } = hold();
    make(operation("mutation", "first"));
    make(operation("query", "inbox"));
    make(operation("mutation", "second"));
    make(operation("subscription", "live"));
    expect(forwarded).toEqual(["inbox", "live"]);

    open();
    await afterThisTask();
    expect(forwarded).toEqual(["inbox", "live", "first", "second"]);
  });

  it("holds nothing once open", async () => {
    const { make, open, forwarded } = hold();
    open();
    await afterThisTask();
    make(operation("mutation", "later"));
    expect(forwarded).toEqual(["later"]);
  });

  it("what is sent in the task that opens it (the queue earlier pages kept) goes before the held mutations", async () => {
    const { make, open, forwarded } = hold();
    make(operation("mutation", "made before the read"));
    open();
    make(operation("mutation", "kept by an earlier page"));
    expect(forwarded).toEqual(["kept by an earlier page"]);
    await afterThisTask();
    expect(forwarded).toEqual(["kept by an earlier page", "made before the read"]);
  });

  it("a mutation made while the held ones are let through comes after them", async () => {
    let makeAgain = (_: Operation) => {};
    const { make, open, forwarded } = hold((forwardedOperation) => {
      if (labelOf(forwardedOperation) === "first") makeAgain(operation("mutation", "made meanwhile"));
    });
    makeAgain = make;
    make(operation("mutation", "first"));
    make(operation("mutation", "second"));

    open();
    await afterThisTask();
    expect(forwarded).toEqual(["first", "second", "made meanwhile"]);
  });

  it("teardowns pass while mutations are held", () => {
    const { make, forwarded } = hold();
    const query = operation("query", "inbox");
    make(operation("mutation", "held"));
    make(query);
    make(makeOperation("teardown", query));
    expect(forwarded).toEqual(["inbox", "teardown:inbox"]);
  });
});
