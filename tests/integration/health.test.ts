import { describe, expect, it } from "vitest";
import { healthAnswer } from "~/server/health.server";
import { testApis } from "../support/api-server";

const api = testApis();

describe("/healthz", () => {
  it("reports the database: which one, and that it answers", async () => {
    const t = await api();
    const response = await fetch(new URL("/healthz", t.url));
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({
      status: "ok",
      buildId: "test-build",
      database: { dialect: t.databaseUrl ? "postgres" : "sqlite", reachable: true },
    });
  });

  it("answers 503 while the database does not answer, and reports no database for a hosted API", async () => {
    const down = await healthAnswer(async () => ({ dialect: "sqlite", reachable: false }), "b1");
    expect(down).toEqual({
      status: 503,
      body: { status: "unavailable", buildId: "b1", database: { dialect: "sqlite", reachable: false } },
    });
    expect(await healthAnswer(null, "b1")).toEqual({ status: 200, body: { status: "ok", buildId: "b1", database: null } });
  });
});
