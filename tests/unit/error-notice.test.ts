import { CombinedError } from "@urql/core";
import { GraphQLError } from "graphql";
import { describe, expect, it } from "vitest";
import { errorNotice } from "~/lib/graphql/error-notice";

const withCode = (code: string | undefined, message = "Technical text") =>
  new CombinedError({ graphQLErrors: [new GraphQLError(message, { extensions: code ? { code } : {} })] });

describe("what a person is told about a failed operation", () => {
  it.each([
    ["UNAUTHENTICATED", "errors.signedOut"],
    ["RATE_LIMITED", "errors.rateLimited"],
    ["BAD_USER_INPUT", "errors.invalidInput"],
    ["WEATHER_UNAVAILABLE", "errors.weatherUnavailable"],
    ["SERVICE_UNAVAILABLE", "errors.serviceUnavailable"],
    ["NOT_FOUND", "errors.notFound"],
    ["FORBIDDEN", "errors.notFound"],
    ["INTERNAL_SERVER_ERROR", "errors.serverError"],
    [undefined, "errors.serverError"],
  ])("a GraphQL error with code %s says %s", (code, notice) => {
    expect(errorNotice(withCode(code), true)).toBe(notice);
  });

  it("takes the first error whose code it knows", () => {
    const error = new CombinedError({
      graphQLErrors: [new GraphQLError("Boom"), new GraphQLError("Slow", { extensions: { code: "RATE_LIMITED" } })],
    });
    expect(errorNotice(error, true)).toBe("errors.rateLimited");
  });

  it("no answer at all: offline when the browser says so, else the server cannot be reached", () => {
    const failed = new CombinedError({ networkError: new TypeError("Failed to fetch") });
    expect(errorNotice(failed, false)).toBe("errors.offline");
    expect(errorNotice(failed, true)).toBe("errors.unreachable");
  });

  it("an answer that is an HTTP error or not JSON is the server's fault", () => {
    expect(errorNotice(new CombinedError({ networkError: new Error("Bad Gateway"), response: { status: 502 } }), false)).toBe(
      "errors.serverError",
    );
    expect(errorNotice(new CombinedError({ networkError: new SyntaxError("Unexpected token <") }), true)).toBe("errors.serverError");
  });
});
