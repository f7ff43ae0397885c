import { Client, createRequest, getOperationName, makeResult, type Exchange, type OperationResult } from "@urql/core";
import { parse } from "graphql";
import { filter, map, pipe } from "wonka";
import { describe, expect, it, vi } from "vitest";
import { VIEWER_QUERY } from "~/lib/graphql/documents";
import { INBOX_QUERY, MARK_READ_MUTATION, PLACES_QUERY } from "~/lib/graphql/signed-in-documents";
import type { GraphQLQuery, GraphQLQueryRunner } from "~/lib/graphql/executor-context";
import { pageResultsExchange } from "~/server/graphql/page-results.server";
import { runnerPageQuery } from "~/server/graphql/page-queries.server";
import { requestCacheExchange } from "~/server/graphql/request-cache.server";

/** The embedded API's runner as the page sees it: each query answered on a later tick, counted; `Places` fails. */
function fakeRunner() {
  const asked: GraphQLQuery[] = [];
  const run: GraphQLQueryRunner = async (query) => {
    asked.push(query);
    await new Promise((resolve) => setTimeout(resolve, 1));
    if (query.operationName === "Places") return { data: null, errors: [{ message: "Down", extensions: { code: "X" } }] } as never;
    if (query.variables.after === "down") throw new Error("socket hang up");
    return { data: { answer: `${query.operationName} #${asked.length}` } };
  };
  return { run, names: () => asked.map((query) => query.operationName), asked };
}

/** A request's GraphQL as request-client.server.ts puts it together, with a client whose mutations are answered here. */
function requestWithRunner() {
  const runner = fakeRunner();
  const mutations: Exchange = () => (operations$) =>
    pipe(
      operations$,
      filter((operation) => operation.kind === "mutation"),
      map((operation) => makeResult(operation, { data: { markRead: [] } })),
    );
  const cached = new Map<number, OperationResult>();
  const ssr = pageResultsExchange();
  const client = new Client({ url: "http://weatherbot.internal/graphql", exchanges: [requestCacheExchange(cached), ssr, mutations] });
  const query = runnerPageQuery({ client, run: runner.run, headers: { authorization: "Bearer t" }, cached, record: ssr.record });
  return { ...runner, client, ssr, query };
}

describe("a page's queries on the embedded API", () => {
  it("run on the runner, never through the client's exchanges, with the page's session and __typename asked", async () => {
    const { query, client, asked } = requestWithRunner();
    const executeQuery = vi.spyOn(client, "executeQuery");
    const result = await query(INBOX_QUERY, { after: "x" });
    expect(result.data).toEqual({ answer: "Inbox #1" });
    // The browser's client finds it in the page's data under its own key for the same query and variables.
    expect(result.operation.key).toBe(createRequest(INBOX_QUERY, { after: "x" }).key);
    expect(executeQuery).not.toHaveBeenCalled();
    expect(asked).toEqual([
      {
        query: expect.stringContaining("__typename"),
        variables: { after: "x" },
        operationName: "Inbox",
        headers: { authorization: "Bearer t" },
      },
    ]);
    expect(parse(asked[0]!.query).definitions).toHaveLength(INBOX_QUERY.definitions.length);
  });

  it("run a query once per variables, however often and however soon it is asked again", async () => {
    const { query, names } = requestWithRunner();
    const [first, together] = await Promise.all([query(VIEWER_QUERY, {}), query(VIEWER_QUERY, {})]);
    const later = await query(VIEWER_QUERY, {});
    expect([together.data, later.data]).toEqual([first.data, first.data]);
    await query(INBOX_QUERY, {});
    await query(INBOX_QUERY, { after: "x" });
    await query(INBOX_QUERY, {});
    expect(names()).toEqual(["Viewer", "Inbox", "Inbox"]);
  });

  it("give a failure as the client would, cache no failed result, and a mutation through the client drops the cached ones", async () => {
    const { query, client, names } = requestWithRunner();
    await query(VIEWER_QUERY, {});
    const failed = await query(PLACES_QUERY, {});
    expect([failed.error?.graphQLErrors[0]?.message, failed.error?.graphQLErrors[0]?.extensions.code]).toEqual(["Down", "X"]);
    const unreachable = await query(INBOX_QUERY, { after: "down" });
    expect(unreachable.error?.networkError?.message).toBe("socket hang up");
    await query(PLACES_QUERY, {});
    await client.mutation(MARK_READ_MUTATION, { ids: [] }).toPromise();
    expect((await query(VIEWER_QUERY, {})).data).toEqual({ answer: "Viewer #5" });
    expect(names()).toEqual(["Viewer", "Places", "Inbox", "Places", "Viewer"]);
  });

  it("are the render's results and the page's data script, as the client's own queries would be", async () => {
    const { query, client, ssr, names } = requestWithRunner();
    const viewer = await query(VIEWER_QUERY, {});
    await query(PLACES_QUERY, {});
    // What urql's useQuery reads in the render: the client answers at once, from the cached result.
    expect(client.readQuery(VIEWER_QUERY, {})?.data).toBe(viewer.data);
    expect(names()).toEqual(["Viewer", "Places"]);
    expect(Object.keys(ssr.extractData())).toHaveLength(2);
    expect(ssr.extractData()[viewer.operation.key]).toEqual({ data: '{"answer":"Viewer #1"}', hasNext: false });
    expect(getOperationName(viewer.operation.query)).toBe("Viewer");
  });
});
