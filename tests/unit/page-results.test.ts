import {
  Client,
  getOperationName,
  makeErrorResult,
  makeResult,
  ssrExchange,
  type Exchange,
  type Operation,
  type OperationResult,
} from "@urql/core";
import { filter, map, pipe } from "wonka";
import { describe, expect, it } from "vitest";
import { VIEWER_QUERY } from "~/lib/graphql/documents";
import { ALERT_RULES_QUERY, PLACES_QUERY } from "~/lib/graphql/signed-in-documents";
import { keepDataText, pageResultsExchange } from "~/server/graphql/page-results.server";

/** Answers each query as `answer` says, as the network or the API would. */
const answering =
  (answer: (operation: Operation) => OperationResult): Exchange =>
  () =>
  (operations$) =>
    pipe(
      operations$,
      filter((operation) => operation.kind !== "teardown"),
      map(answer),
    );

const places = { me: { __typename: "User", id: "u1", places: [{ __typename: "Place", id: "p1", label: 'Say "hi" </script>' }] } };

function answer(operation: Operation): OperationResult {
  if (getOperationName(operation.query) === getOperationName(PLACES_QUERY)) return makeResult(operation, { data: places });
  if (operation.variables && "fail" in operation.variables) return makeErrorResult(operation, new Error("socket hang up"));
  return makeResult(operation, {
    data: null,
    errors: [
      { message: "Not signed in", extensions: { code: "UNAUTHENTICATED" } },
      { message: "Gone", path: ["me", "alertRules"] },
    ],
  } as never);
}

/** What a page's client records of these queries with `ssr` (one client per page, as on the server). */
async function recorded(ssr: ReturnType<typeof ssrExchange>, answers: (operation: Operation) => OperationResult = answer) {
  const client = new Client({ url: "http://weatherbot.internal/graphql", exchanges: [ssr, answering(answers)] });
  await client.query(PLACES_QUERY, {}).toPromise();
  await client.query(ALERT_RULES_QUERY, {}).toPromise();
  await client.query(VIEWER_QUERY, { fail: true } as never).toPromise();
  return ssr.extractData();
}

describe("the server render's record of its results", () => {
  it("is what urql's ssr exchange records: data, errors with their codes and paths, network errors", async () => {
    const ours = await recorded(pageResultsExchange());
    expect(Object.keys(ours)).toHaveLength(3);
    expect(ours).toEqual(await recorded(ssrExchange({ isClient: false })));
    expect(JSON.stringify(ours)).toContain("UNAUTHENTICATED");
    expect(JSON.stringify(ours)).toContain("socket hang up");
    expect(JSON.stringify(ours)).toContain("Say");
  });

  it("takes a result's data as the JSON it came with, instead of writing it again", async () => {
    // JSON the same as the data's but written differently, so where the record's text came from shows.
    const text = JSON.stringify(places, null, 1);
    const withText = (operation: Operation) => {
      const result = answer(operation);
      if (result.data) keepDataText(result.data as object, text);
      return result;
    };
    const ours = await recorded(pageResultsExchange(), withText);
    const placesKey = Object.keys(ours).find((key) => ours[key]!.data?.includes("Say"))!;
    expect(ours[placesKey]!.data).toBe(text);
    expect(JSON.parse(ours[placesKey]!.data!)).toEqual(places);
    const urqls = await recorded(ssrExchange({ isClient: false }), withText);
    expect(urqls[placesKey]!.data).toBe(JSON.stringify(places));
  });

  it("asks for __typename as urql's ssr exchange does, for the browser's graphcache", async () => {
    const asked: Operation[] = [];
    const ssr = pageResultsExchange();
    const client = new Client({
      url: "http://weatherbot.internal/graphql",
      exchanges: [ssr, answering((operation) => (asked.push(operation), makeResult(operation, { data: places })))],
    });
    await client.query(PLACES_QUERY, {}).toPromise();
    expect(JSON.stringify(asked[0]!.query.definitions)).toContain('"value":"__typename"');
  });
});
