import { UNSAFE_ErrorResponseImpl as ErrorResponseImpl } from "react-router";
import { describe, expect, it } from "vitest";
import { describeError } from "~/components/error-view";

describe("describeError", () => {
  it("takes status and message from a route error response", () => {
    const error = new ErrorResponseImpl(404, "Not Found", { message: "Page not found: /nope" });
    expect(describeError(error)).toEqual({ status: 404, message: "Page not found: /nope", stack: null });
  });

  it("accepts a plain string payload", () => {
    expect(describeError(new ErrorResponseImpl(400, "Bad Request", "Bad id"))).toMatchObject({
      status: 400,
      message: "Bad id",
    });
  });

  it("falls back to the status text", () => {
    expect(describeError(new ErrorResponseImpl(403, "Forbidden", null))).toMatchObject({
      status: 403,
      message: "Forbidden",
    });
  });

  it("reports an Error as a 500 with its message", () => {
    expect(describeError(new Error("Boom"))).toMatchObject({ status: 500, message: "Boom" });
  });

  it.each([undefined, "oops", { status: 404 }])("reports %j as a 500 without a message", (error) => {
    expect(describeError(error)).toEqual({ status: 500, message: null, stack: null });
  });
});
