import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "~/server/env.server";

function envError(source: Record<string, string | undefined>): EnvError {
  try {
    parseEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return error as EnvError;
  }
  throw new Error(`parseEnv accepted ${JSON.stringify(source)}`);
}

describe("parseEnv", () => {
  it("gives working defaults for an empty environment", () => {
    expect(parseEnv({})).toEqual({
      NODE_ENV: "production",
      PORT: 3000,
      HOST: "127.0.0.1",
      TRUST_PROXY: false,
      TEST_HOOKS: false,
      PASSWORD_HASH_COST: "owasp",
      PUSH_ALLOW_LOOPBACK: false,
      DATA_DIR: "./data",
      DATABASE_POOL_SIZE: 10,
      OPEN_METEO_FORECAST_URL: "https://api.open-meteo.com",
      OPEN_METEO_GEOCODING_URL: "https://geocoding-api.open-meteo.com",
      OPEN_METEO_AIR_QUALITY_URL: "https://air-quality-api.open-meteo.com",
      NWS_ALERTS_URL: "https://api.weather.gov",
      METEOALARM_URL: "https://feeds.meteoalarm.org",
      VAPID_SUBJECT: "mailto:admin@weatherbot.example",
      POSTHOG_HOST: "https://eu.i.posthog.com",
      LOG_LEVEL: "info",
      METRICS_ALLOW: ["loopback"],
      REQUEST_LIMIT: 1200,
      MUTATION_LIMIT: 120,
      ENGINE_SHARDS: 16,
      ENGINE_REFRESH_SPREAD: true,
      MESSAGE_RETENTION_DAYS: 90,
    });
  });

  it("reads the engine's shard count (1 to 4096) and the messages' retention in days", () => {
    expect(parseEnv({ ENGINE_SHARDS: "256", MESSAGE_RETENTION_DAYS: "30", ENGINE_REFRESH_SPREAD: "0" })).toMatchObject({
      ENGINE_SHARDS: 256,
      MESSAGE_RETENTION_DAYS: 30,
      ENGINE_REFRESH_SPREAD: false,
    });
    expect(() => parseEnv({ ENGINE_SHARDS: "0" })).toThrow(/ENGINE_SHARDS: expected a whole number from 1 to 4096/);
    expect(() => parseEnv({ ENGINE_SHARDS: "5000" })).toThrow(/ENGINE_SHARDS: expected a whole number from 1 to 4096/);
    expect(() => parseEnv({ MESSAGE_RETENTION_DAYS: "-3" })).toThrow(/MESSAGE_RETENTION_DAYS: expected a whole number/);
  });

  it("reads LOG_LEVEL as one of pino's levels", () => {
    expect(parseEnv({ LOG_LEVEL: "debug" }).LOG_LEVEL).toBe("debug");
    expect(parseEnv({ LOG_LEVEL: "silent" }).LOG_LEVEL).toBe("silent");
    expect(envError({ LOG_LEVEL: "verbose" }).message).toContain('LOG_LEVEL: expected one of "fatal", "error"');
  });

  it("reads who may read /metrics: addresses and subnets, none, and a token it never shows", () => {
    expect(parseEnv({ METRICS_ALLOW: "10.0.0.0/8, 192.168.1.7,loopback" }).METRICS_ALLOW).toEqual([
      "10.0.0.0/8",
      "192.168.1.7",
      "loopback",
    ]);
    expect(parseEnv({ METRICS_ALLOW: "none" }).METRICS_ALLOW).toEqual([]);
    expect(envError({ METRICS_ALLOW: "10.0.0.0/40" }).message).toContain("METRICS_ALLOW:");
    const token = "short-token";
    const { message } = envError({ METRICS_TOKEN: token });
    expect(message).toContain("METRICS_TOKEN: expected at least 16 characters");
    expect(message).not.toContain(token);
    expect(parseEnv({ METRICS_TOKEN: "a".repeat(32) }).METRICS_TOKEN).toBe("a".repeat(32));
  });

  it("takes the request limits per client address and minute (0: no limit)", () => {
    expect(parseEnv({ REQUEST_LIMIT: "600", MUTATION_LIMIT: "0" })).toMatchObject({ REQUEST_LIMIT: 600, MUTATION_LIMIT: 0 });
    expect(() => parseEnv({ REQUEST_LIMIT: "lots" })).toThrow(/REQUEST_LIMIT: expected a whole number \(0: no limit\)/);
    expect(() => parseEnv({ MUTATION_LIMIT: "-1" })).toThrow(/MUTATION_LIMIT: expected a whole number/);
  });

  it("takes analytics settings: a key turns analytics on, the host is a base URL", () => {
    const env = parseEnv({ POSTHOG_KEY: " phc_abc ", POSTHOG_HOST: "http://127.0.0.1:9000/" });
    expect(env.POSTHOG_KEY).toBe("phc_abc");
    expect(env.POSTHOG_HOST).toBe("http://127.0.0.1:9000");
    expect(parseEnv({}).POSTHOG_KEY).toBeUndefined();
    expect(() => parseEnv({ POSTHOG_HOST: "eu.i.posthog.com" })).toThrow(/POSTHOG_HOST: expected an http\(s\) base URL/);
  });

  it("validates the API's settings", () => {
    const env = parseEnv({ OPEN_METEO_FORECAST_URL: "http://127.0.0.1:8787/", DATABASE_URL: "sqlite:/tmp/x.sqlite" });
    expect(env.OPEN_METEO_FORECAST_URL).toBe("http://127.0.0.1:8787");
    expect(env.DATABASE_URL).toBe("sqlite:/tmp/x.sqlite");
    expect(() => parseEnv({ OPEN_METEO_GEOCODING_URL: "ftp://example.com" })).toThrow(
      /OPEN_METEO_GEOCODING_URL: expected an http\(s\) base URL/,
    );
    expect(parseEnv({ DATABASE_URL: "postgres://app@db:5432/weatherbot" }).DATABASE_URL).toBe("postgres://app@db:5432/weatherbot");
    expect(parseEnv({ DATABASE_URL: "postgresql://db/weatherbot" }).DATABASE_URL).toBe("postgresql://db/weatherbot");
    expect(() => parseEnv({ DATABASE_URL: "mysql://db/weatherbot" })).toThrow(/DATABASE_URL: expected "sqlite:<path>" or "postgres:\/\//);
    expect(parseEnv({}).DATABASE_POOL_SIZE).toBe(10);
    expect(parseEnv({ DATABASE_POOL_SIZE: "25" }).DATABASE_POOL_SIZE).toBe(25);
    expect(() => parseEnv({ DATABASE_POOL_SIZE: "0" })).toThrow(/DATABASE_POOL_SIZE: expected a whole number from 1 to 1000/);
    expect(() => parseEnv({ DATABASE_POOL_SIZE: "many" })).toThrow(/DATABASE_POOL_SIZE: expected a whole number/);
    expect(parseEnv({ GRAPHQL_URL: "https://api.example.com/graphql" }).GRAPHQL_URL).toBe("https://api.example.com/graphql");
    expect(() => parseEnv({ GRAPHQL_URL: "api.example.com/graphql" })).toThrow(
      /GRAPHQL_URL: expected the http\(s\) URL of a GraphQL endpoint/,
    );
    expect(() => parseEnv({ VAPID_SUBJECT: "someone" })).toThrow(/VAPID_SUBJECT: expected mailto:/);
  });

  it("reads set values", () => {
    const env = parseEnv({ NODE_ENV: "production", PORT: "8080", HOST: "0.0.0.0", TEST_HOOKS: "1" });
    expect(env).toMatchObject({ NODE_ENV: "production", PORT: 8080, HOST: "0.0.0.0", TEST_HOOKS: true });
  });

  it("treats empty strings as unset", () => {
    expect(parseEnv({ NODE_ENV: "", PORT: "", HOST: "", TRUST_PROXY: "", SESSION_SECRET: "", TEST_HOOKS: "" })).toEqual(parseEnv({}));
  });

  it.each(["abc", "70000"])("rejects PORT=%s, naming the variable and the value", (value) => {
    const { message } = envError({ PORT: value });
    expect(message).toContain("PORT:");
    expect(message).toContain(`"${value}"`);
  });

  it("rejects an unknown NODE_ENV", () => {
    const { message } = envError({ NODE_ENV: "staging" });
    expect(message).toContain("NODE_ENV:");
    expect(message).toContain('expected "development", "production" or "test"');
    expect(message).toContain('"staging"');
  });

  describe("TRUST_PROXY", () => {
    it.each([
      ["true", true],
      ["false", false],
      ["1", 1],
      ["2", 2],
      ["loopback, 10.0.0.0/8", ["loopback", "10.0.0.0/8"]],
      ["::1, fd00::/8", ["::1", "fd00::/8"]],
    ])("parses %j", (raw, expected) => {
      expect(parseEnv({ TRUST_PROXY: raw }).TRUST_PROXY).toEqual(expected);
    });

    it("names the entry it cannot read", () => {
      const { message } = envError({ TRUST_PROXY: "loopback, bogus" });
      expect(message).toContain("TRUST_PROXY:");
      expect(message).toContain('"bogus" is none of these');
    });

    it("rejects an impossible prefix length", () => {
      const { message } = envError({ TRUST_PROXY: "10.0.0.0/99" });
      expect(message).toContain("TRUST_PROXY:");
      expect(message).toContain("10.0.0.0/99");
    });
  });

  it("rejects a short SESSION_SECRET without showing it", () => {
    const secret = "too-short-secret-value";
    const { message } = envError({ SESSION_SECRET: secret });
    expect(message).toContain("SESSION_SECRET:");
    expect(message).toContain("at least 32 characters");
    expect(message).not.toContain(secret);
  });

  it("accepts a long enough SESSION_SECRET", () => {
    const secret = "x".repeat(32);
    expect(parseEnv({ SESSION_SECRET: secret }).SESSION_SECRET).toBe(secret);
  });

  it("reads PUSH_ALLOW_LOOPBACK as a flag, off unless set", () => {
    expect(parseEnv({ PUSH_ALLOW_LOOPBACK: "1" }).PUSH_ALLOW_LOOPBACK).toBe(true);
    expect(parseEnv({ PUSH_ALLOW_LOOPBACK: "false" }).PUSH_ALLOW_LOOPBACK).toBe(false);
    expect(envError({ PUSH_ALLOW_LOOPBACK: "yes" }).message).toContain(
      'PUSH_ALLOW_LOOPBACK: expected "1"/"true" or "0"/"false" (got "yes")',
    );
  });

  it("takes the test run's password hash cost only in a test run: production refuses it", () => {
    expect(parseEnv({ PASSWORD_HASH_COST: "test", TEST_HOOKS: "1" }).PASSWORD_HASH_COST).toBe("test");
    expect(parseEnv({ PASSWORD_HASH_COST: "test", NODE_ENV: "test" }).PASSWORD_HASH_COST).toBe("test");
    expect(envError({ PASSWORD_HASH_COST: "test" }).message).toContain(
      'PASSWORD_HASH_COST: "test" weakens every password stored: only a test run may use it (NODE_ENV=test or TEST_HOOKS=1) (got "test")',
    );
    expect(envError({ PASSWORD_HASH_COST: "low" }).message).toContain('PASSWORD_HASH_COST: expected "owasp" or "test" (got "low")');
  });

  it("lists every bad variable in one error", () => {
    const error = envError({ PORT: "abc", NODE_ENV: "staging", TRUST_PROXY: "bogus", TEST_HOOKS: "yes" });
    expect(error.problems).toHaveLength(4);
    for (const name of ["PORT:", "NODE_ENV:", "TRUST_PROXY:", "TEST_HOOKS:"]) {
      expect(error.message).toContain(name);
    }
  });
});
