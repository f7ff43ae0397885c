import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "~/lib/safe-redirect";

describe("safeRedirectPath", () => {
  it.each(["/", "/settings", "/settings?x=1#a"])("keeps the same-origin path %j", (path) => {
    expect(safeRedirectPath(path)).toBe(path);
  });

  it.each([
    "https://evil.example",
    "//evil.example",
    "//weatherbot.invalid/settings",
    "/\t/evil.example/x", // the URL parser drops the tab: //evil.example/x
    "/\\evil",
    "settings",
    "",
    "javascript:alert(1)",
    // Dot segments the parser resolves into a protocol-relative "//evil.example".
    "/.//evil.example",
    "/..//evil.example",
    "/a/..//evil.example",
    "/.%2e//evil.example",
    "/./\\evil.example",
  ])("replaces %j with the fallback", (value) => {
    expect(safeRedirectPath(value)).toBe("/");
    expect(safeRedirectPath(value, "/settings")).toBe("/settings");
  });

  it.each([null, undefined, 42, ["/settings"], { path: "/" }])("replaces the non-string %j", (value) => {
    expect(safeRedirectPath(value, "/home")).toBe("/home");
  });
});
