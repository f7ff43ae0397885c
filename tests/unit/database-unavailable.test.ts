import { describe, expect, it } from "vitest";
import { databaseUnavailableError, isDatabaseUnavailable } from "~/api/db/unavailable.server";

const withCode = (code: string, message = "boom") => Object.assign(new Error(message), { code });

describe("telling an unreachable database from a failed query", () => {
  it.each([
    ["PostgreSQL shutting down", withCode("57P01", "terminating connection due to administrator command")],
    ["PostgreSQL starting up", withCode("57P03", "the database system is starting up")],
    ["too many connections", withCode("53300")],
    ["a connection exception", withCode("08006")],
    ["a refused connection", withCode("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:5432")],
    ["a dropped connection", new Error("Connection terminated unexpectedly")],
    ["the pool's connect timeout", new Error("timeout exceeded when trying to connect")],
    ["a client's connect timeout", new Error("timeout expired")],
    ["every address refused", new AggregateError([withCode("ECONNREFUSED"), withCode("ECONNREFUSED")], "")],
    ["SQLite still locked after its busy timeout", withCode("SQLITE_BUSY", "database is locked")],
    ["a cause that is one of these", new Error("query failed", { cause: withCode("57P01") })],
  ])("%s is unavailable", (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ["a unique violation", withCode("23505", "duplicate key value violates unique constraint")],
    ["a syntax error", withCode("42601")],
    ["SQLite's constraint error", withCode("SQLITE_CONSTRAINT_UNIQUE")],
    ["a plain bug", new TypeError("Cannot read properties of undefined")],
    ["another timeout that merely mentions it", new Error("the forecast request's timeout expired")],
    ["nothing", undefined],
    ["a string", "ECONNREFUSED"],
  ])("%s is not", (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it("the error a request gets says to retry, with a 503 and Retry-After", () => {
    const error = databaseUnavailableError();
    expect(error.extensions).toMatchObject({
      code: "SERVICE_UNAVAILABLE",
      retryable: true,
      http: { status: 503, headers: { "Retry-After": "2" } },
    });
  });
});
