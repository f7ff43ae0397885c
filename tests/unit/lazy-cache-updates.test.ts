import { Client, createRequest, makeOperation, type Operation, type OperationResult, type OperationType } from "@urql/core";
import type { UpdatesConfig } from "@urql/exchange-graphcache";
import type { DocumentNode } from "graphql";
import { makeSubject, map, onPush, pipe, publish } from "wonka";
import { describe, expect, it, vi } from "vitest";
import { lazyCacheUpdates, type CacheUpdatesModule } from "~/lib/graphql/lazy-cache-updates";
import { MESSAGE_RECEIVED_SUBSCRIPTION, VIEWER_QUERY } from "~/lib/graphql/documents";
import { RENAME_PLACE_MUTATION } from "~/lib/graphql/later-documents";

const client = new Client({ url: "http://127.0.0.1:9/graphql", exchanges: [] });
const DOCUMENTS = { mutation: RENAME_PLACE_MUTATION, query: VIEWER_QUERY, subscription: MESSAGE_RECEIVED_SUBSCRIPTION };

function operation(kind: Exclude<OperationType, "teardown">, label: string): Operation {
  return client.createRequestOperation(kind, createRequest(DOCUMENTS[kind] as DocumentNode, { label }));
}
const labelOf = (operation: Operation) => (operation.variables as { label: string }).label;

const UPDATES: UpdatesConfig = { Mutation: { renamePlace: () => {} }, Subscription: { messageReceived: () => {} } };

/** A module load the test finishes (or fails) when it likes. */
function deferredLoad() {
  let finish: (module: CacheUpdatesModule) => void = () => {};
  let fail: (error: Error) => void = () => {};
  let calls = 0;
  const load = () => {
    calls++;
    return new Promise<CacheUpdatesModule>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
  };
  return {
    load,
    calls: () => calls,
    finish: () => finish({ createCacheUpdates: () => UPDATES }),
    fail: () => fail(new Error("offline")),
  };
}

/**
 * [beforeCache, a stand-in cache, afterCache, a network that answers every operation at once]: what passes
 * `beforeCache` (as the cache saw it) and which results come out on top, by label.
 */
function chain(load: () => Promise<CacheUpdatesModule>) {
  const updates = lazyCacheUpdates(load);
  const operations = makeSubject<Operation>();
  const sentToCache: string[] = [];
  const results: string[] = [];
  const network = () => (operations$: Parameters<ReturnType<typeof updates.afterCache>>[0]) =>
    pipe(
      operations$,
      map((operation): OperationResult => ({ operation, data: {}, stale: false, hasNext: false })),
    );
  const afterCache = updates.afterCache({ client, dispatchDebug: () => {}, forward: network() });
  const beforeCache = updates.beforeCache({
    client,
    dispatchDebug: () => {},
    forward: (operations$) =>
      afterCache(
        pipe(
          operations$,
          onPush((operation) => sentToCache.push(operation.kind === "teardown" ? `teardown:${labelOf(operation)}` : labelOf(operation))),
        ),
      ),
  });
  pipe(
    beforeCache(operations.source),
    onPush((result) => results.push(labelOf(result.operation))),
    publish,
  );
  return { updates, make: (operation: Operation) => operations.next(operation), sentToCache, results };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("lazyCacheUpdates", () => {
  it("queries pass at once; mutations wait for the updaters, and mutation and subscription results are written only after they are in", async () => {
    const loading = deferredLoad();
    const { updates, make, sentToCache, results } = chain(loading.load);
    expect(loading.calls()).toBe(0);

    make(operation("query", "viewer"));
    make(operation("mutation", "rename"));
    make(operation("subscription", "live"));
    expect(loading.calls()).toBe(1);
    expect(sentToCache).toEqual(["viewer", "live"]);
    expect(results).toEqual(["viewer"]);
    expect(updates.config.Mutation).toEqual({});

    loading.finish();
    await settle();
    expect(updates.config).toEqual(UPDATES);
    expect(sentToCache).toEqual(["viewer", "live", "rename"]);
    // Held work goes on in the order it was held: the mutation (answered at once here), then the live result.
    expect(results).toEqual(["viewer", "rename", "live"]);

    make(operation("mutation", "later"));
    expect(sentToCache.at(-1)).toBe("later");
    expect(results.at(-1)).toBe("later");
  });

  it("teardowns pass while a mutation waits", () => {
    const { make, sentToCache } = chain(deferredLoad().load);
    const query = operation("query", "inbox");
    make(operation("mutation", "held"));
    make(makeOperation("teardown", query));
    expect(sentToCache).toEqual(["teardown:inbox"]);
  });

  it("a failed load is tried again at the next mutation; settled() does not wait for that retry", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const loading = deferredLoad();
    const { updates, make, sentToCache } = chain(loading.load);
    make(operation("mutation", "first"));
    const settled = updates.settled();
    loading.fail();
    await settled;
    expect(sentToCache).toEqual([]);
    expect(warn).toHaveBeenCalledOnce();

    make(operation("mutation", "second"));
    expect(loading.calls()).toBe(2);
    loading.finish();
    await settle();
    expect(sentToCache).toEqual(["first", "second"]);
  });
});
