import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TypedDocumentNode } from "@urql/core";
import { print } from "graphql";
import { afterEach } from "vitest";
import type { PasswordHashCost } from "~/api/auth/password.server";
import { createApi, type Api } from "~/api/index.server";
import type { MailConfig } from "~/api/mail/mail-service.server";
import type { ApiMetrics } from "~/api/metrics.server";
import type { RequestLimitConfig } from "~/api/request-limits.server";
import type { SchemaExtension } from "~/api/schema/index.server";
import { SignUpDocument } from "~/lib/account-documents.generated";
import { startFakeOfficialWarnings, type FakeOfficialWarnings } from "../fakes/official-warnings";
import { startFakeOpenMeteo, type FakeOpenMeteo } from "../fakes/open-meteo";
import { serveApi } from "./serve-api";
import { testMailConfig } from "./test-mail";
import { testDatabaseUrl } from "./test-database";

export type GraphQLResponse<T = Record<string, unknown>> = {
  status: number;
  data?: T | null;
  errors?: Array<{ message: string; extensions?: { code?: string; [key: string]: unknown } }>;
};

type RequestOptions = { token?: string; headers?: Record<string, string> };

export type TestApi = {
  url: string;
  api: Api;
  fake: FakeOpenMeteo;
  /** The official-warning services' fake (NWS_ALERTS_URL and METEOALARM_URL point at it). */
  warnings: FakeOfficialWarnings;
  dataDir: string;
  /** The PostgreSQL database it runs on (undefined: SQLite in `dataDir`); a second API on it shares its data. */
  databaseUrl: string | undefined;
  /** A typed document (the app's, from documents.generated.ts) answers with its result type; a string with `T`. */
  gql: {
    <R, V extends Record<string, unknown>>(
      document: TypedDocumentNode<R, V>,
      variables?: V,
      options?: RequestOptions,
    ): Promise<GraphQLResponse<R>>;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a string query's result is untyped: callers name the shape they expect
    <T = Record<string, any>>(query: string, variables?: Record<string, unknown>, options?: RequestOptions): Promise<GraphQLResponse<T>>;
  };
  /** Signs up a fresh account and returns its token. */
  signUp: (email?: string, password?: string) => Promise<string>;
  close: () => Promise<void>;
};

let counter = 0;

/**
 * The real API on a real database (SQLite in a temporary directory, or a fresh PostgreSQL
 * database in the PostgreSQL run), served over real HTTP on a loopback port, with the
 * Open-Meteo fake as its provider and the official-warnings fake as both warning services.
 */
export async function startTestApi(
  options: {
    now?: () => Date;
    dataDir?: string;
    /** Default: a fresh database of the run (testDatabaseUrl): PostgreSQL in its project, else SQLite in `dataDir`. */
    databaseUrl?: string;
    fake?: FakeOpenMeteo;
    /** Default: a fake of its own, closed with the API. */
    warnings?: FakeOfficialWarnings;
    production?: boolean;
    pushAllowLoopback?: boolean;
    maxAnswerChars?: number;
    schemaExtensions?: readonly SchemaExtension[];
    onStatement?: (sql: string) => void;
    /** PostgreSQL: the pool's size (DATABASE_POOL_SIZE); 1 makes an instance wait for its one connection, as SQLite's does. */
    databasePoolSize?: number;
    /** What the API counts (the server's prom-client registry, as createServerMetrics gives it). */
    metrics?: ApiMetrics;
    /** The general limits (REQUEST_LIMIT, MUTATION_LIMIT); default: none. */
    requestLimits?: RequestLimitConfig;
    /** New password hashes' scrypt cost: default the test run's (PASSWORD_HASH_COST=test); undefined, the API's own. */
    passwordHashCost?: PasswordHashCost;
    /** Mail through this SMTP server (tests/fakes/smtp.ts's url), with the test settings of testMailConfig; default: no mail. */
    mail?: Partial<MailConfig> & { smtpUrl: string };
  } = {},
): Promise<TestApi> {
  const fake = options.fake ?? (await startFakeOpenMeteo({ now: options.now }));
  const warnings = options.warnings ?? (await startFakeOfficialWarnings());
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), "weatherbot-test-")));
  const databaseUrl = "databaseUrl" in options ? options.databaseUrl : await testDatabaseUrl();
  const api = await createApi({
    production: options.production ?? true,
    dataDir,
    databaseUrl,
    openMeteoForecastUrl: fake.url,
    openMeteoAirQualityUrl: fake.url,
    openMeteoGeocodingUrl: fake.url,
    // Never the real services: both answer from the fake (their paths do not meet).
    nwsAlertsUrl: warnings.url,
    meteoAlarmUrl: warnings.url,
    now: options.now,
    scheduler: false,
    // A test run signs up hundreds of accounts; OWASP's cost is proven by accounts.test.ts.
    passwordHashCost: "passwordHashCost" in options ? options.passwordHashCost : "test",
    // The tests' push service listens on loopback (as PUSH_ALLOW_LOOPBACK=1 allows).
    pushAllowLoopback: options.pushAllowLoopback ?? true,
    maxAnswerChars: options.maxAnswerChars,
    schemaExtensions: options.schemaExtensions,
    onStatement: options.onStatement,
    databasePoolSize: options.databasePoolSize,
    metrics: options.metrics,
    requestLimits: options.requestLimits,
    mail: options.mail && testMailConfig(options.mail),
  });
  // The production server's /graphql handler and WebSocket server, with loopback as a trusted proxy.
  const served = await serveApi(api, { buildId: __BUILD_ID__ });
  const url = served.url;
  let closing: Promise<void> | undefined;

  const gql = (async (document: string | TypedDocumentNode<unknown, object>, variables?: object, requestOptions: RequestOptions = {}) => {
    const query = typeof document === "string" ? document : print(document);
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(requestOptions.token ? { authorization: `Bearer ${requestOptions.token}` } : {}),
        ...requestOptions.headers,
      },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as Omit<GraphQLResponse, "status">;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped GraphQL result (string queries): callers name the shape they expect
    return { status: response.status, ...body } as GraphQLResponse<any>;
  }) as TestApi["gql"];

  return {
    url,
    api,
    fake,
    warnings,
    dataDir,
    databaseUrl,
    gql,
    async signUp(email = `user${++counter}-${Date.now()}@example.com`, password = "a sturdy passphrase") {
      const result = await gql(SignUpDocument, { email, password });
      if (!result.data?.signUp) throw new Error(`signUp failed: ${JSON.stringify(result.errors)}`);
      return result.data.signUp.token;
    },
    // Once, however often asked (a test may close early; the harness closes after it).
    close: () =>
      (closing ??= (async () => {
        await served.close();
        await api.close();
        if (!options.fake) await fake.close();
        if (!options.warnings) await warnings.close();
        if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
      })()),
  };
}

/** The `extensions.code` of each error, for compact assertions. */
export const codes = (response: GraphQLResponse) => (response.errors ?? []).map((error) => error.extensions?.code);

/**
 * For test files that start their own API per test: `const api = testApis();` then
 * `await api(options)`; every API started in a test is closed after it.
 */
export function testApis() {
  const open: TestApi[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((t) => t.close()));
  });
  return async (options: Parameters<typeof startTestApi>[0] = {}) => {
    const started = await startTestApi(options);
    open.push(started);
    return started;
  };
}
