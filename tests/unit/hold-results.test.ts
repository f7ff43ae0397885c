import { Client, createRequest, makeResult, type Operation, type OperationResult } from "@urql/core";
import type { DocumentNode } from "graphql";
import { makeSubject, map, pipe, subscribe } from "wonka";
import { describe, expect, it } from "vitest";
import { holdResultsUntil } from "~/lib/graphql/hold-results";
import { VIEWER_QUERY } from "~/lib/graphql/documents";

const client = new Client({ url: "http://127.0.0.1:9/graphql", exchanges: [] });

/** A result the network would answer, told apart by its `email`. */
function answer(email: string): OperationResult {
  const operation: Operation = client.createRequestOperation("query", createRequest(VIEWER_QUERY as DocumentNode, {}));
  return makeResult(operation, { data: { me: { email } } });
}

/** The exchange over a network whose answers the test pushes; what it lets through, by email. */
function held(ready: Promise<void>) {
  const network = makeSubject<OperationResult>();
  const through: string[] = [];
  const exchange = holdResultsUntil(ready)({ client, dispatchDebug: () => {}, forward: () => network.source });
  pipe(
    exchange(makeSubject<Operation>().source),
    map((result) => (result.data as { me: { email: string } }).me.email),
    subscribe((email) => void through.push(email)),
  );
  return { answer: (email: string) => network.next(answer(email)), through };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("holdResultsUntil", () => {
  it("holds what the network answers until the page has hydrated, then lets it through in the order it came", async () => {
    let hydrated!: () => void;
    const { answer, through } = held(new Promise<void>((resolve) => (hydrated = resolve)));
    answer("first@example.com");
    answer("second@example.com");
    await settled();
    expect(through).toEqual([]);
    hydrated();
    await settled();
    expect(through).toEqual(["first@example.com", "second@example.com"]);
  });

  it("lets nothing that comes after the page hydrated pass what it held", async () => {
    let hydrated!: () => void;
    const ready = new Promise<void>((resolve) => (hydrated = resolve));
    const { answer, through } = held(ready);
    answer("held@example.com");
    hydrated();
    // The first moment anything can run after the hold opened.
    await ready;
    answer("after@example.com");
    await settled();
    expect(through).toEqual(["held@example.com", "after@example.com"]);
  });

  it("holds nothing once the page has hydrated: an answer goes through at once", async () => {
    const ready = Promise.resolve();
    const { answer, through } = held(ready);
    await ready;
    answer("live@example.com");
    expect(through).toEqual(["live@example.com"]);
  });
});
