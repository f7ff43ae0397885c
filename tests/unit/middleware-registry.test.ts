import { describe, expect, it } from "vitest";
import { i18nextMiddleware } from "~/server/i18n/middleware.server";
import { middlewareNamed, type MiddlewareName } from "~/server/middleware/registry.server";
import { testHooksMiddleware } from "~/server/middleware/test-hooks.server";

describe("middlewareNamed", () => {
  it("resolves names to their middleware, in order", () => {
    expect(middlewareNamed("i18n")).toEqual([i18nextMiddleware]);
    expect(middlewareNamed("test-hooks", "i18n")).toEqual([testHooksMiddleware, i18nextMiddleware]);
    for (const middleware of middlewareNamed("i18n", "test-hooks")) expect(middleware).toBeTypeOf("function");
  });

  it("throws for an unknown name", () => {
    expect(() => middlewareNamed("nope" as MiddlewareName)).toThrow(new Error("Unknown middleware: nope"));
  });

  it("does not resolve inherited object keys", () => {
    expect(() => middlewareNamed("toString" as MiddlewareName)).toThrow("Unknown middleware: toString");
  });
});
