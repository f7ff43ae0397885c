import { Client, getOperationName, makeResult, type AnyVariables, type Exchange, type Operation } from "@urql/core";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { Provider, useQuery as useUrqlQuery, type UseQueryArgs, type UseQueryState } from "urql";
import { filter, map, pipe } from "wonka";
import { describe, expect, it, vi } from "vitest";
import { INBOX_QUERY, MARK_READ_MUTATION, PLACES_QUERY, VIEWER_QUERY } from "~/lib/graphql/documents";
import { requestCacheExchange } from "~/lib/graphql/request-cache.server";
import { useQuery } from "~/lib/graphql/use-query";

/** A server request's client with the request cache before a network that counts what reaches it. */
function clientWithNetwork(failing: ReadonlySet<string> = new Set()) {
  const asked: Operation[] = [];
  const network: Exchange = () => (operations$) =>
    pipe(
      operations$,
      filter((operation) => operation.kind !== "teardown"),
      map((operation) => {
        asked.push(operation);
        const name = getOperationName(operation.query) ?? "";
        if (failing.has(name))
          return makeResult(operation, { data: null, errors: [{ message: "Down", extensions: { code: "X" } }] } as never);
        return makeResult(operation, { data: { answer: `${name} #${asked.length}` } });
      }),
    );
  const client = new Client({ url: "http://weatherbot.internal/graphql", exchanges: [requestCacheExchange(), network] });
  const names = () => asked.map((operation) => getOperationName(operation.query));
  return { client, names };
}

describe("a server request's cache", () => {
  it("runs a query once per variables, and answers it again with the first result", async () => {
    const { client, names } = clientWithNetwork();
    const first = await client.query(VIEWER_QUERY, {}).toPromise();
    const again = await client.query(VIEWER_QUERY, {}).toPromise();
    expect(again.data).toEqual(first.data);
    expect(again.operation.key).toBe(first.operation.key);
    await client.query(INBOX_QUERY, {}).toPromise();
    await client.query(INBOX_QUERY, { after: "x" }).toPromise();
    await client.query(INBOX_QUERY, {}).toPromise();
    expect(names()).toEqual(["Viewer", "Inbox", "Inbox"]);
  });

  it("drops every kept result after a mutation, and keeps no failed one", async () => {
    const { client, names } = clientWithNetwork(new Set(["Places"]));
    await client.query(VIEWER_QUERY, {}).toPromise();
    expect((await client.query(PLACES_QUERY, {}).toPromise()).error?.graphQLErrors[0]?.message).toBe("Down");
    await client.query(PLACES_QUERY, {}).toPromise();
    await client.mutation(MARK_READ_MUTATION, { ids: [] }).toPromise();
    const after = await client.query(VIEWER_QUERY, {}).toPromise();
    expect(names()).toEqual(["Viewer", "Places", "Places", "MarkRead", "Viewer"]);
    expect(after.data).toEqual({ answer: "Viewer #5" });
  });

  it("asks the network again for a query that must not come from a cache", async () => {
    const { client, names } = clientWithNetwork();
    await client.query(VIEWER_QUERY, {}).toPromise();
    await client.query(VIEWER_QUERY, {}, { requestPolicy: "network-only" }).toPromise();
    expect(names()).toEqual(["Viewer", "Viewer"]);
  });
});

describe("useQuery in a server render", () => {
  type State = UseQueryState<unknown, AnyVariables>;

  /** Renders one component that records the state each hook gives for `args`. */
  function render(client: Client, hook: typeof useQuery, args: UseQueryArgs): State {
    let state: State | undefined;
    function Reader() {
      [state] = hook(args);
      return null;
    }
    renderToString(createElement(Provider, { value: client }, createElement(Reader)));
    return state!;
  }

  it("gives what urql's own hook gives for a result the loaders fetched, without asking the network", async () => {
    const { client, names } = clientWithNetwork();
    await client.query(INBOX_QUERY, { after: "x" }).toPromise();
    const executeQuery = vi.spyOn(client, "executeQuery");
    const ours = render(client, useQuery, { query: INBOX_QUERY, variables: { after: "x" } });
    expect(executeQuery).not.toHaveBeenCalled();
    expect(names()).toEqual(["Inbox"]);
    const urqls = render(client, useUrqlQuery, { query: INBOX_QUERY, variables: { after: "x" } });
    expect(ours).toEqual({ ...urqls, operation: ours.operation });
    expect(ours.operation?.key).toBe(urqls.operation?.key);
    expect(ours).toMatchObject({ data: { answer: "Inbox #1" }, fetching: false, stale: false, error: undefined });
  });

  // urql's hook would start the query, whose answer (the page's runner is asynchronous) comes after the render.
  it("is fetching for a query the loaders did not fetch or that must not come from a cache, and runs none", async () => {
    const { client, names } = clientWithNetwork();
    await client.query(VIEWER_QUERY, {}).toPromise();
    expect(render(client, useQuery, { query: INBOX_QUERY, variables: { after: "y" } })).toMatchObject({ fetching: true, data: undefined });
    expect(render(client, useQuery, { query: VIEWER_QUERY, requestPolicy: "network-only" })).toMatchObject({ fetching: true });
    expect(render(client, useQuery, { query: VIEWER_QUERY, context: { requestPolicy: "cache-and-network" } })).toMatchObject({
      fetching: true,
    });
    expect(names()).toEqual(["Viewer"]);
  });

  it("is neither fetching nor answered when paused", async () => {
    const { client } = clientWithNetwork();
    await client.query(VIEWER_QUERY, {}).toPromise();
    const paused = render(client, useQuery, { query: VIEWER_QUERY, pause: true });
    expect(paused).toEqual(render(client, useUrqlQuery, { query: VIEWER_QUERY, pause: true }));
    expect(paused).toMatchObject({ fetching: false, data: undefined });
  });
});
