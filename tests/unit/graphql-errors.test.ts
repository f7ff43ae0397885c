import { CombinedError } from "@urql/core";
import { GraphQLError } from "graphql";
import { describe, expect, it } from "vitest";
import { graphqlErrorCodes, graphqlErrorMessage } from "~/lib/graphql/errors";

describe("GraphQL error messages", () => {
  it("joins the messages of a response with errors", () => {
    const error = new CombinedError({ graphQLErrors: [new GraphQLError("First"), new GraphQLError("Second")] });
    expect(graphqlErrorMessage(error)).toBe("GraphQL response contains errors: First, Second");
  });

  it("calls an HTTP status of 300 or more a server error", () => {
    const error = new CombinedError({ networkError: new Error("Bad Gateway"), response: { status: 502 } });
    expect(graphqlErrorMessage(error)).toBe("Server error: HTTP 502");
  });

  it("reports a body that is not JSON as a parse error, anything else as a network error", () => {
    const parse = new CombinedError({ networkError: new SyntaxError("Unexpected token < in JSON at position 0") });
    expect(graphqlErrorMessage(parse)).toBe("Parse error: Unexpected token < in JSON at position 0");
    const network = new CombinedError({ networkError: new TypeError("fetch failed") });
    expect(graphqlErrorMessage(network)).toBe("Network error: fetch failed");
  });

  it("exposes code, field, reason and retry time for forms", () => {
    const error = new CombinedError({
      graphQLErrors: [
        new GraphQLError("Too common", { extensions: { code: "BAD_USER_INPUT", field: "password", reason: "PASSWORD_TOO_COMMON" } }),
        new GraphQLError("Slow down", { extensions: { code: "RATE_LIMITED", retryAfterSeconds: 42 } }),
      ],
    });
    expect(graphqlErrorCodes(error)).toEqual([
      { code: "BAD_USER_INPUT", field: "password", reason: "PASSWORD_TOO_COMMON", retryAfterSeconds: undefined, message: "Too common" },
      { code: "RATE_LIMITED", field: undefined, reason: undefined, retryAfterSeconds: 42, message: "Slow down" },
    ]);
  });
});
