import { print } from "graphql";
import { afterEach, describe, expect, it, vi } from "vitest";
import { inProcessGraphQLFetch } from "~/server/graphql-endpoint.server";
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
