import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import { MAX_REQUEST_BYTES } from "~/api/index.server";
import { codes, startTestApi, testApis, type TestApi } from "../support/api-server";

let t: TestApi;
beforeAll(async () => {
  t = await startTestApi({ production: true });
});
afterAll(() => t.close());

// Operations stay strings here by design: the tests are about hostile text itself (depth, aliases, sizes, bad variables).
const stillServing = async () => expect((await t.gql(`{ me { id } }`)).data).toEqual({ me: null });

describe("hardening", () => {
  it("refuses queries nested deeper than 10", async () => {
    // The schema has no cycles yet, so nest through inline fragments to go deep.
    let query = "me { id }";
    for (let i = 0; i < 12; i++) query = `places { id weather { id current { id } } } ... on Query { ${query} }`;
    const shallow = await t.gql(`{ places { weather { current { id } } } }`);
    expect(codes(shallow)).toEqual(["UNAUTHENTICATED"]); // a normal query passes the limits
    const result = await t.gql(`{ ${query} }`);
    expect(result.errors?.length).toBeGreaterThan(0);
    expect(result.errors![0]!.message).toMatch(/depth|cost|token/i);
    await stillServing();
  });

  it("refuses alias floods", async () => {
    const aliases = Array.from({ length: 50 }, (_, i) => `a${i}: me { id }`).join(" ");
    const result = await t.gql(`{ ${aliases} }`);
    expect(result.errors!.some((error) => /alias/i.test(error.message))).toBe(true);
    await stillServing();
  });

  it("counts list sizes in the cost limit: 15 aliases of places × 168 hours are refused before anything runs", async () => {
    const hourFields =
      "id time condition weatherCode isDay temperature apparentTemperature precipitation precipitationProbability snowfall windSpeed windGusts uvIndex";
    const flood = Array.from({ length: 15 }, (_, i) => `a${i}: me { places { weather { hourly(hours: 168) { ${hourFields} } } } }`).join(
      " ",
    );
    const refused = await t.gql(`{ ${flood} }`);
    expect(refused.data ?? null).toBeNull();
    expect(codes(refused)).toEqual(["BAD_USER_INPUT"]);
    expect(refused.errors![0]!.message).toMatch(/asks for too much at once: it costs \d+, and at most \d+ is allowed/);
    // One place list at the app's 48 hours is well within it; a variable counts as the most it could ask for.
    expect(await t.gql(`{ me { places { weather { hourly(hours: 48) { ${hourFields} } } } } }`)).toEqual({
      status: 200,
      data: { me: null },
    });
    const variable = await t.gql(`query ($h: Int!) { ${flood.replaceAll("hours: 168", "hours: $h")} }`, { h: 1 });
    expect(codes(variable)).toEqual(["BAD_USER_INPUT"]);
    await stillServing();
  });

  it("refuses introspection in production", async () => {
    const result = await t.gql(`{ __schema { types { name } } }`);
    expect(result.data ?? null).toBeNull();
    expect(result.errors![0]!.message).toMatch(/introspection/i);
    await stillServing();
  });

  it("gives wrong variable types a clear error with a code", async () => {
    const result = await t.gql(`query ($lat: Float!) { weatherAt(latitude: $lat, longitude: 1) { id } }`, { lat: "north" });
    expect(result.errors![0]!.message).toContain("Float");
    expect(codes(result)[0]).toBeTruthy();
    await stillServing();
  });

  it("refuses huge inputs without storing anything", async () => {
    const huge = "x".repeat(100_000);
    const result = await t.gql(`mutation ($e: String!) { signUp(email: $e, password: $e) { token } }`, { e: huge });
    expect(codes(result)).toEqual(["BAD_USER_INPUT"]);
    expect(await t.api.services.db.selectFrom("users").select("id").execute()).toEqual([]);
    const search = await t.gql(`query ($q: String!) { searchLocations(query: $q) { id } }`, { q: huge });
    expect(codes(search)).toEqual(["BAD_USER_INPUT"]);
    await stillServing();
  });

  it("refuses a request larger than MAX_REQUEST_BYTES, over HTTP and as a WebSocket message", async () => {
    const oversized = JSON.stringify({ query: "{ me { id } }", variables: { pad: "x".repeat(MAX_REQUEST_BYTES) } });
    const response = await fetch(t.url, { method: "POST", headers: { "content-type": "application/json" }, body: oversized });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });

    // graphql-ws logs the socket's error ("Max payload size exceeded") as it closes it.
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const socket = new WebSocket(t.url.replace(/^http/, "ws"), "graphql-transport-ws");
      await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
      const closed = new Promise<number>((resolve) => socket.once("close", (code) => resolve(code)));
      socket.send(oversized);
      expect(await closed).toBe(1009); // "message too big"
      expect(logged).toHaveBeenCalledWith(expect.stringContaining("Internal error emitted on a WebSocket"), expect.any(RangeError));
    } finally {
      logged.mockRestore();
    }
    await stillServing();
  });

  it("answers a body that is not JSON with an error, not a crash", async () => {
    const response = await fetch(t.url, { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" });
    expect(response.status).toBe(400);
    await stillServing();
  });

  it("does not run mutations over GET", async () => {
    const response = await fetch(`${t.url}?query=${encodeURIComponent("mutation { logOut }")}`);
    expect(response.status).toBe(405);
    await stillServing();
  });

  it("masks unexpected errors: a generic message and INTERNAL_SERVER_ERROR, details only in the log", async () => {
    const token = await t.signUp();
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    // Requests and cached reads query through Kyselys made from the shared one (they log what they read): the failure goes into those.
    const db = t.api.services.db;
    const withPlugin = db.withPlugin.bind(db);
    db.withPlugin = ((plugin) => {
      const derived = withPlugin(plugin);
      const selectFrom = derived.selectFrom.bind(derived);
      derived.selectFrom = ((table: never) => {
        if (table === "places") throw new Error("disk on fire at /var/lib/secret");
        return selectFrom(table);
      }) as typeof derived.selectFrom;
      return derived;
    }) as typeof db.withPlugin;
    try {
      const result = await t.gql(`{ places { id } }`, {}, { token });
      expect(codes(result)).toEqual(["INTERNAL_SERVER_ERROR"]);
      expect(JSON.stringify(result)).not.toContain("disk on fire");
      expect(logged.mock.calls.flat().join(" ")).toContain("disk on fire");
    } finally {
      db.withPlugin = withPlugin;
    }
    await stillServing();
  });

  describe("signed-out lookups", () => {
    const api = testApis();

    it("are limited to 60 a minute per address; signed-in users are not", async () => {
      const own = await api();
      const lookup = (token?: string) => own.gql(`{ weatherAt(latitude: 52.52, longitude: 13.41) { id } }`, {}, { token });
      for (let i = 0; i < 60; i++) expect((await lookup()).errors).toBeUndefined();
      const limited = await lookup();
      expect(codes(limited)).toEqual(["RATE_LIMITED"]);
      expect(limited.errors![0]!.message).toMatch(/or log in$/);
      const search = await own.gql(`{ searchLocations(query: "ber") { id } }`);
      expect(codes(search)).toEqual(["RATE_LIMITED"]);
      const token = await own.signUp();
      expect((await lookup(token)).errors).toBeUndefined();
    });
  });
});
