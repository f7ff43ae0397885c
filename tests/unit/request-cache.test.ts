import { Client, getOperationName, makeResult, type Exchange, type Operation } from "@urql/core";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { Provider, useQuery, type UseQueryState } from "urql";
import { filter, map, pipe } from "wonka";
import { describe, expect, it } from "vitest";
import { VIEWER_QUERY } from "~/lib/graphql/documents";
import { INBOX_QUERY, MARK_READ_MUTATION, PLACES_QUERY } from "~/lib/graphql/signed-in-documents";
import { requestCacheExchange } from "~/server/graphql/request-cache.server";

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

  it("drops every cached result after a mutation, and caches no failed one", async () => {
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

describe("urql's useQuery in a server render", () => {
  it("reads a result the loaders fetched at once, without asking the network again", async () => {
    const { client, names } = clientWithNetwork();
    await client.query(INBOX_QUERY, { after: "x" }).toPromise();
    let state: UseQueryState | undefined;
    function Reader() {
      [state] = useQuery({ query: INBOX_QUERY, variables: { after: "x" } });
      return null;
    }
    renderToString(createElement(Provider, { value: client }, createElement(Reader)));
    expect(state).toMatchObject({ data: { answer: "Inbox #1" }, fetching: false, stale: false, error: undefined });
    expect(names()).toEqual(["Inbox"]);
  });
});
