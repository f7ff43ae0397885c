import { describe, expect, it } from "vitest";
import { isCrossSiteWrite } from "~/server/same-origin.server";

const HOST = "weatherbot.example:3000";

describe("isCrossSiteWrite", () => {
  it.each(["GET", "HEAD", "OPTIONS", "get"])("never refuses %s", (method) => {
    expect(isCrossSiteWrite(method, { origin: "https://evil.example", "sec-fetch-site": "cross-site" }, HOST)).toBe(false);
  });

  it("lets a POST from the same origin through", () => {
    expect(isCrossSiteWrite("POST", { origin: `http://${HOST}` }, HOST)).toBe(false);
  });

  it.each(["https://evil.example", "http://weatherbot.example:4000", "null", "not a url"])("refuses a POST from origin %j", (origin) => {
    expect(isCrossSiteWrite("POST", { origin }, HOST)).toBe(true);
  });

  it.each([
    ["cross-site", true],
    ["same-site", true],
    ["same-origin", false],
    ["none", false],
  ])("treats Sec-Fetch-Site %s as cross-site: %s", (site, refused) => {
    expect(isCrossSiteWrite("POST", { "sec-fetch-site": site }, HOST)).toBe(refused);
  });

  it("refuses a same-site fetch even when the origin header looks right", () => {
    expect(isCrossSiteWrite("DELETE", { origin: `http://${HOST}`, "sec-fetch-site": "same-site" }, HOST)).toBe(true);
  });

  it("lets a write without Origin or Sec-Fetch-Site through", () => {
    expect(isCrossSiteWrite("POST", {}, HOST)).toBe(false);
  });
});
