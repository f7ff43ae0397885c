import { cacheExchange, ssrExchange } from "@urql/core";
import { print } from "graphql";
import { RouterContextProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { graphqlFetchContext, graphqlQueryRunnerContext } from "~/lib/graphql/executor-context";
import { createGraphQLClient } from "~/lib/graphql/client";
import { VIEWER_QUERY } from "~/lib/graphql/documents";
import { ALERT_RULES_QUERY, INBOX_QUERY, PLACES_QUERY } from "~/lib/graphql/signed-in-documents";
import { ADD_PLACE_AT_MUTATION } from "~/lib/graphql/later-documents";
import { createRequestGraphQL } from "~/server/graphql/request-client.server";
import type { Load } from "~/lib/graphql/route-load";
import { parseGraphQLData, serializeGraphQLData } from "~/lib/graphql/ssr-data";
import { inProcessGraphQLFetch } from "~/server/graphql-endpoint.server";
import { inProcessQueryRunner } from "~/server/in-process-queries.server";
import { SESSION_COOKIE } from "~/shared/session-cookie";
import { testApis } from "../support/api-server";
import { TestInProcessMeEmailDocument as ME_EMAIL, TestInProcessWrongLogInDocument as WRONG_LOG_IN } from "../support/documents.generated";

const api = testApis();
afterEach(() => vi.unstubAllGlobals());

describe("loaders' GraphQL with the API embedded", () => {
  it("runs in this process, never over the network, as the page's client address", async () => {
    const t = await api();
    const token = await t.signUp("inprocess@example.com");
    const networkFetch = vi.fn(() => Promise.reject(new Error("no network in this test")));
    vi.stubGlobal("fetch", networkFetch);
    const graphqlFetch = inProcessGraphQLFetch(t.api.yoga.fetch, "203.0.113.7");

    // A loader's request as urql sends it: the typed document's text in a JSON body.
    const ask = () =>
      graphqlFetch("http://localhost/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: print(ME_EMAIL) }),
      }).then((response) => response.json());
    expect(await ask()).toEqual({ data: { me: { email: "inprocess@example.com" } } });
    expect(networkFetch).not.toHaveBeenCalled();

    // The address it was given is the one the API's limits count: 20 failed logins per address
    // (each for another account, so the per-account limit of 5 plays no part).
    const login = (fetchAs: typeof fetch, attempt: number) =>
      fetchAs("http://localhost/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: print(WRONG_LOG_IN), variables: { email: `nobody${attempt}@example.com` } }),
      })
        .then((response) => response.json() as Promise<{ errors: Array<{ extensions: { code: string } }> }>)
        .then((answer) => answer.errors[0]!.extensions.code);
    const codes: string[] = [];
    for (let attempt = 0; attempt < 21; attempt++) codes.push(await login(graphqlFetch, attempt));
    expect(codes.slice(0, 20).every((code) => code !== "RATE_LIMITED")).toBe(true);
    expect(codes[20]).toBe("RATE_LIMITED");
    // Another address, in-process as well, is not held back by the first one's attempts.
    expect(await login(inProcessGraphQLFetch(t.api.yoga.fetch, "198.51.100.4"), 99)).toBe("UNAUTHENTICATED");
    expect(networkFetch).not.toHaveBeenCalled();
  });
});

describe("a page's queries with the API embedded", () => {
  const noLog = () => {};

  it("run on the API in this process, with the session of the page and the codes a request over HTTP gets", async () => {
    const t = await api();
    const token = await t.signUp("runner@example.com");
    // What the API refuses gets the code it gets over HTTP: a field that does not exist, an operation over the depth
    // limit, one that does not parse.
    const deep = `{ me { ${"places { alertRules { place { ".repeat(6)}id${" } } }".repeat(6)} } }`;
    const refused = ["{ me { favouriteColour } }", deep, "{ me "];
    const overHttp = await Promise.all(refused.map((query) => t.gql(query, {}, { token })));

    const networkFetch = vi.fn(() => Promise.reject(new Error("no network in this test")));
    vi.stubGlobal("fetch", networkFetch);
    const run = inProcessQueryRunner(t.api, "203.0.113.8", "page-request", noLog);
    const headers = { authorization: `Bearer ${token}` };
    const signedIn = await run({ query: print(ME_EMAIL), variables: {}, operationName: undefined, headers });
    expect([signedIn.data, signedIn.errors]).toEqual([{ me: { email: "runner@example.com" } }, undefined]);
    const signedOut = await run({ query: print(ME_EMAIL), variables: {}, operationName: undefined, headers: {} });
    expect([signedOut.data, signedOut.errors]).toEqual([{ me: null }, undefined]);
    for (const [index, query] of refused.entries()) {
      const inProcess = await run({ query, variables: {}, operationName: undefined, headers });
      const answer = overHttp[index]!;
      expect(inProcess.errors?.length, query).toBeGreaterThan(0);
      expect(inProcess.errors!.map((error) => [error.message, error.extensions?.code])).toEqual(
        answer.errors!.map((error) => [error.message, error.extensions?.code]),
      );
    }
    expect(networkFetch).not.toHaveBeenCalled();
  });

  it("answer what fails outside the API's own errors as yoga does over HTTP: masked, with a code, the details logged", async () => {
    const t = await api();
    const logged: unknown[] = [];
    const run = inProcessQueryRunner(t.api, "203.0.113.8", "page-request", (fields, message) => logged.push([fields, message]));
    // A header value no Request takes: what throws is none of the API's errors.
    const answer = await run({
      query: print(ME_EMAIL),
      variables: {},
      operationName: undefined,
      headers: { authorization: "Bearer a\nb" },
    });
    expect(answer.data).toBeUndefined();
    expect(answer.errors?.map((error) => [error.message, error.extensions?.code])).toEqual([
      ["Unexpected error.", "INTERNAL_SERVER_ERROR"],
    ]);
    expect(logged).toEqual([[{ reqId: "page-request", err: expect.any(TypeError) }, "[graphql] unexpected error:"]]);
  });

  it("give the page's data script what the same queries fetched over HTTP gave, fresh and cached", async () => {
    const t = await api();
    const token = await t.signUp("page-data@example.com");
    for (const [index, label] of ["Zürich <b>", 'Say "hi"', "Lyon"].entries()) {
      const added = await t.gql(ADD_PLACE_AT_MUTATION, { latitude: 47 + index, longitude: 8.5, label }, { token });
      expect(added.errors).toBeUndefined();
    }
    const request = new Request("http://localhost/", { headers: { Cookie: `${SESSION_COOKIE}=${token}` } });
    const fetchInProcess = inProcessGraphQLFetch(t.api.yoga.fetch, "203.0.113.9");

    /** A page's queries as the home page's loaders run them (app/routes/home.tsx). */
    const loadHome = async (load: Load) => {
      await load(VIEWER_QUERY, {});
      await Promise.all([load(PLACES_QUERY, {}), load(INBOX_QUERY, {}), load(ALERT_RULES_QUERY, {})]);
    };
    /** The page's data script, read back, with each result's JSON text as data. */
    const script = (data: Parameters<typeof serializeGraphQLData>[0]) =>
      Object.fromEntries(
        Object.entries(parseGraphQLData(serializeGraphQLData(data))).map(([key, result]) => [
          key,
          { ...result, data: JSON.parse(result.data!) },
        ]),
      );

    const asFetched = async () => {
      // The page's client before queries ran in process: every query a fetch, recorded by urql's own ssr exchange.
      const ssr = ssrExchange({ isClient: false });
      const client = createGraphQLClient({
        url: "http://weatherbot.internal/graphql",
        fetch: fetchInProcess,
        headers: { authorization: `Bearer ${token}` },
        ssr,
        cache: cacheExchange,
      });
      await loadHome(async (document, variables) => (await client.query(document, variables).toPromise()).data!);
      return script(ssr.extractData());
    };
    const asRun = async () => {
      const context = new RouterContextProvider();
      context.set(graphqlFetchContext, fetchInProcess);
      context.set(graphqlQueryRunnerContext, inProcessQueryRunner(t.api, "203.0.113.9", "page-request", noLog));
      const page = createRequestGraphQL(request, context);
      // Only the runner answers: the client's way to the API is closed.
      const viaClient = vi.spyOn(page.client, "executeQuery");
      await loadHome(async (document, variables) => (await page.query(document, variables)).data!);
      expect(viaClient).not.toHaveBeenCalled();
      return script(page.ssr.extractData());
    };
    // The first run of each query is executed; the next ones are the result cache's answers.
    const executed = await asRun();
    const fetched = await asFetched();
    expect(Object.keys(fetched)).toHaveLength(4);
    expect(JSON.stringify(fetched)).toContain("Zürich <b>");
    expect(executed).toEqual(fetched);
    expect(await asRun()).toEqual(fetched);
  });
});
