import { randomUUID } from "node:crypto";
import path from "node:path";
import { EnvelopArmorPlugin } from "@escape.tech/graphql-armor";
import { getOperationAST, GraphQLError, NoSchemaIntrospectionCustomRule } from "graphql";
import { createYoga, type Plugin } from "graphql-yoga";
import { GRAPHQL_PATH } from "../shared/graphql-path";
import { sessionTokenFromCookie } from "../shared/session-cookie";
import { createHashSlots } from "./auth/hash-slots.server";
import type { PasswordHashCost } from "./auth/password.server";
import { createLoginGuard } from "./auth/login-guard.server";
import { createSessionEnds } from "./auth/session-ends.server";
import { followSessionEnds } from "./auth/session-follower.server";
import { createRateLimits } from "./auth/rate-limit.server";
import { createAlertService } from "./bot/alerts.server";
import { createBriefingService } from "./bot/briefings.server";
import { createInbox } from "./bot/inbox.server";
import { createPushService, loadVapidKeys } from "./bot/push.server";
import { createEngine } from "./bot/engine.server";
import { createShardLeases } from "./bot/engine-shards.server";
import { startScheduler } from "./bot/scheduler.server";
import { MAX_ANSWER_CHARS, useAnswerSizeLimit } from "./answer-size.server";
import { costLimitRule } from "./cost-limit.server";
import { useJitForRepeatedOperations } from "./jit.server";
import { apiLog, setApiLogger, type ApiLogger, type OperationLogRecord } from "./log.server";
import { noMetrics, type ApiMetrics } from "./metrics.server";
import { useOperationObserver } from "./operation-observer.server";
import { Loaders } from "./loaders.server";
import { createSessionLookup } from "./auth/sessions.server";
import type { ApiContext, ApiServices } from "./context.server";
import { databaseTarget, openDatabase, type Db } from "./db/database.server";
import { createDatabaseProbe } from "./db/health.server";
import { createOutageLog } from "./db/outage-log.server";
import { databaseUnavailableError, isDatabaseUnavailable } from "./db/unavailable.server";
import { newResultHints, RequestReads, useResultCache } from "./result-cache.server";
import { useRequestRefusals } from "./request-refusals.server";
import {
  createRequestLimits,
  NO_REQUEST_LIMITS,
  tooManyRequests,
  type RequestLimitConfig,
  type RequestLimits,
} from "./request-limits.server";
import { createApiSchema, type SchemaExtension } from "./schema/index.server";
import { createPlaceLists } from "./schema/places.server";
import { createAirQualityService } from "./weather/air-quality-service.server";
import { createForecastService } from "./weather/forecast-service.server";
import { createOpenMeteoClient } from "./weather/open-meteo.server";
import { createRecentLocations } from "./weather/recent-locations.server";

/**
 * The embedded reference API: one entry for the server (app/server/app.server.ts). Everything
 * under app/api is server-only; the app reaches it only over GraphQL at /graphql.
 */

export type ApiConfig = {
  production: boolean;
  dataDir: string;
  /** DATABASE_URL: `postgres://…` for PostgreSQL; unset or `sqlite:<path>` for SQLite. */
  databaseUrl?: string;
  /** DATABASE_POOL_SIZE: PostgreSQL connections kept at most (default 10). */
  databasePoolSize?: number;
  openMeteoForecastUrl: string;
  openMeteoGeocodingUrl: string;
  /** Open-Meteo's air-quality API base (OPEN_METEO_AIR_QUALITY_URL). */
  openMeteoAirQualityUrl: string;
  now?: () => Date;
  /** VAPID "subject": a mailto: or https: contact for push services. */
  pushSubject?: string;
  /** Lets push endpoints be on loopback (PUSH_ALLOW_LOOPBACK: the tests' push service); otherwise only public HTTPS hosts. */
  pushAllowLoopback?: boolean;
  /** The largest answer sent, in characters of JSON (default MAX_ANSWER_CHARS). */
  maxAnswerChars?: number;
  /** Run the bot's scheduler in this process (tests drive it by hand instead). */
  scheduler?: boolean;
  /**
   * The engine's tick (default 30 s), its lease on the shards it holds (default two thirds of a
   * tick: shorter, so a dead instance's shards are free by the next tick) and its name.
   */
  engine?: { intervalMs?: number; leaseMs?: number; instanceId?: string };
  /** Requests and mutations per client address and minute (REQUEST_LIMIT, MUTATION_LIMIT); default: no limit. */
  requestLimits?: RequestLimitConfig;
  /** Fields beside the API's own, for tests only (a resolver the API does not have). */
  schemaExtensions?: readonly SchemaExtension[];
  /** Hears every SQL statement before it runs (tests count a request's statements); nothing in production sets it. */
  onStatement?: (sql: string) => void;
  /** The scrypt cost of new password hashes (PASSWORD_HASH_COST): OWASP's unless a test run asks for its own. */
  passwordHashCost?: PasswordHashCost;
  /** Where the API's log lines go (the server's JSON logger); unset, the console. */
  logger?: ApiLogger;
  /** What the API counts for /metrics (the server's prom-client registry); unset, nothing. */
  metrics?: ApiMetrics;
};

const LIMITS = { maxDepth: 10, maxAliases: 15, maxTokens: 2000 };

/** While the database is down, requests refused for it are logged at most this often. */
const OUTAGE_WARN_MS = 30_000;

/** The largest request the API reads, over HTTP or as one WebSocket message (its biggest operation is a few KB). */
export const MAX_REQUEST_BYTES = 1_000_000;

/** yoga's log calls, as one line: the texts as the message, the first error as `err`. */
function yogaLogMessage(args: unknown[]): string {
  return ["[graphql]", ...args.filter((arg) => typeof arg === "string")].join(" ");
}
function yogaLogFields(args: unknown[]): { err?: unknown } {
  const err = args.find((arg) => arg instanceof Error);
  return err === undefined ? {} : { err };
}

function bearerToken(request: Request): string | null {
  const header = request.headers.get("authorization");
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  if (match) return match[1]!;
  // The app's own pages carry it in their HttpOnly session cookie.
  return sessionTokenFromCookie(request.headers.get("Cookie"));
}

/** The cost limit counts list sizes (armor's own cost limit does not, and is off). */
const useCostLimit = (): Plugin => ({
  onValidate({ addValidationRule }) {
    addValidationRule(costLimitRule());
  },
});

/** Production does not describe its schema to strangers. */
const useNoIntrospection = (): Plugin => ({
  onValidate({ addValidationRule }) {
    addValidationRule(NoSchemaIntrospectionCustomRule);
  },
});

/** Every error leaves with an `extensions.code`: ones the resolvers did not set are malformed requests. */
const useErrorCodes = (): Plugin => ({
  onResultProcess({ result, setResult }) {
    if (Array.isArray(result) || !result || typeof result !== "object" || !("errors" in result) || !result.errors) return;
    const errors = result.errors.map((error) =>
      (error as GraphQLError).extensions?.code
        ? error
        : new GraphQLError(error.message, {
            ...(error as GraphQLError),
            extensions: { ...(error as GraphQLError).extensions, code: "BAD_USER_INPUT" },
          }),
    );
    setResult({ ...result, errors });
  },
});

/**
 * Mutations per client address (REQUEST_LIMIT's stricter sibling), over HTTP and WebSocket alike.
 * Over HTTP the refusal is a 429 with Retry-After; a WebSocket operation gets the error alone.
 */
const useMutationLimit = (limits: RequestLimits): Plugin<{ clientIp?: string; websocket?: boolean }> => ({
  onExecute({ args, setResultAndStopExecution }) {
    if (getOperationAST(args.document, args.operationName)?.operation !== "mutation") return;
    const verdict = limits.take("mutations", args.contextValue.clientIp ?? "unknown");
    if (!verdict.limited) return;
    const seconds = verdict.retryAfterSeconds;
    const http = args.contextValue.websocket ? {} : { http: { status: 429, headers: { "Retry-After": String(seconds) } } };
    setResultAndStopExecution({ errors: [tooManyRequests(seconds, http)] });
  },
});

/** What yoga gives an operation's context to start from: its request, and who the caller says the client is. */
type YogaContext = { request: Request; clientIp?: string; requestId?: string };

const REQUEST_DB = Symbol("request db");
const REQUEST_LOADERS = Symbol("request loaders");
/** A context's own fields behind its inherited `db` and `loaders` (see requestContext). */
type RequestOwn = { reads: RequestReads; [REQUEST_DB]?: Db; [REQUEST_LOADERS]?: Loaders };

export async function createApi(config: ApiConfig) {
  const now = config.now ?? (() => new Date());
  if (config.logger) setApiLogger(config.logger);
  const metrics = config.metrics ?? noMetrics;
  const maxAnswerChars = config.maxAnswerChars ?? MAX_ANSWER_CHARS;
  const { db, changes, dialect } = await openDatabase(databaseTarget(path.resolve(config.dataDir), config.databaseUrl), {
    onStatement: config.onStatement,
    poolSize: config.databasePoolSize,
  });
  const openMeteo = createOpenMeteoClient({
    forecastUrl: config.openMeteoForecastUrl,
    geocodingUrl: config.openMeteoGeocodingUrl,
    airQualityUrl: config.openMeteoAirQualityUrl,
    metrics,
  });
  // The forecast store's values say themselves how long they hold (a resolver passes that on
  // with validUntil), so no kept answer depends on the table behind it.
  const forecasts = createForecastService({ client: openMeteo, db: changes.reads.exempt(db), now, metrics });
  const airQuality = createAirQualityService({ client: openMeteo, db: changes.reads.exempt(db), now, metrics });
  // Its follower only hands new rows to subscribers, which no kept answer depends on.
  const inbox = createInbox(db, now, { followDb: changes.reads.exempt(db) });
  const vapid = loadVapidKeys(path.resolve(config.dataDir));
  const push = createPushService({
    db,
    now,
    vapid,
    subject: config.pushSubject ?? "mailto:admin@weatherbot.example",
    endpointPolicy: { allowLoopback: config.pushAllowLoopback ?? false },
    metrics,
  });
  // Deliveries still under way when the API closes are waited for: the database outlives them.
  const deliveries = new Set<Promise<unknown>>();
  const deliveryLog = createOutageLog("[push]", "delivery failed");
  inbox.onPublish((row) => {
    metrics.messageWritten(row.kind);
    const delivery = push.deliver(row).then(deliveryLog.succeeded, deliveryLog.failed);
    deliveries.add(delivery);
    void delivery.finally(() => deliveries.delete(delivery));
  });
  const rateLimits = createRateLimits(db, { dialect, now: () => now().getTime() });
  // Requests are counted on the wall clock, whatever `now` the tests give the bot; no kept answer reads the counts.
  const requestLimits = createRequestLimits(config.requestLimits ?? NO_REQUEST_LIMITS, { db: changes.reads.exempt(db) });
  const services: ApiServices = {
    db,
    now,
    openMeteo,
    forecasts,
    airQuality,
    placeLists: createPlaceLists(changes, db),
    recentLocations: createRecentLocations(db, now),
    inbox,
    briefings: createBriefingService({ db, inbox, forecasts, now }),
    alerts: createAlertService({ db, inbox, forecasts, airQuality, now }),
    push,
    vapidPublicKey: vapid.publicKey,
    loginGuard: createLoginGuard(rateLimits),
    hashSlots: createHashSlots(),
    passwordHashCost: config.passwordHashCost ?? "owasp",
    sessionEnds: createSessionEnds(now),
    rateLimits,
    metrics,
  };

  const findSession = createSessionLookup(db, changes, now);
  /** Fills yoga's context of an operation in place (see buildContext); an outage is the API's retryable answer. */
  async function fillContext(context: YogaContext): Promise<void> {
    try {
      await buildContext(context);
    } catch (error) {
      // The session lookup meets the database first: an outage here is the same retryable
      // answer as in a resolver (yoga does not pass context errors through maskError).
      if (isDatabaseUnavailable(error)) throw unavailable(error);
      throw error;
    }
  }

  // One warning per outage (at most one per OUTAGE_WARN_MS), not one per request refused.
  let lastWarned = -Infinity;
  function unavailable(error: unknown): GraphQLError {
    if (performance.now() - lastWarned >= OUTAGE_WARN_MS) {
      lastWarned = performance.now();
      apiLog.warn(
        {},
        `[graphql] database unavailable; requests get SERVICE_UNAVAILABLE: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    return databaseUnavailableError();
  }

  /**
   * What every operation's context inherits: the services, and the request's logging Kysely and its loaders, made when
   * a resolver first asks for them (a kept answer runs no resolver). Inherited, not copied: copying twenty services and
   * defining two accessors on each context left it in V8's slow dictionary mode, and every later read of it paid
   * (compare-api: 312 → 251 µs of CPU per request).
   */
  const requestContext: object = Object.create(services, {
    db: {
      get(this: RequestOwn) {
        return (this[REQUEST_DB] ??= changes.reads.logTo(db, this.reads));
      },
    },
    loaders: {
      get(this: RequestOwn & { db: Db }) {
        return (this[REQUEST_LOADERS] ??= new Loaders(this.db));
      },
    },
  } satisfies PropertyDescriptorMap);

  /** Makes yoga's own context object the operation's ApiContext, in place (yoga and envelop use that object throughout). */
  async function buildContext(context: YogaContext): Promise<void> {
    // On PostgreSQL: hear every write other instances committed before this request came, so no kept answer or read is stale.
    const heard = changes.sync();
    if (heard) await heard;
    // Every query of the request, its session's included, runs on its own Kysely, which logs what it reads.
    const reads = new RequestReads(changes);
    const token = bearerToken(context.request);
    const session = token ? await findSession(token, reads) : null;
    // One assign of a literal, then the prototype: V8 keeps a context's shape cheap to extend that way round.
    Object.assign(context, {
      reads,
      session: session
        ? {
            id: session.id,
            userId: session.user_id,
            expiresAt: session.expires_at,
            user: { id: session.user_id, email: session.email, created_at: session.created_at },
          }
        : null,
      clientIp: context.clientIp ?? "unknown",
      requestId: context.requestId ?? randomUUID(),
      resultHints: newResultHints(),
    } satisfies Omit<ApiContext, keyof ApiServices | "loaders">);
    Object.setPrototypeOf(context, requestContext);
  }

  // Unexpected errors the operation observer logged (with their request id): the mask does not log them again.
  const reported = new WeakSet<object>();
  // Callers say who the client is (the HTTP endpoint, trusting proxies as configured; loaders; the WebSocket
  // server) and which request this is (the id the request's log line carries; a fresh one when none is given).
  const yoga = createYoga<{ clientIp?: string; requestId?: string; operationLog?: OperationLogRecord }, ApiContext>({
    schema: createApiSchema(config.schemaExtensions),
    graphqlEndpoint: GRAPHQL_PATH,
    // The HTTP endpoint reads at most MAX_REQUEST_BYTES before yoga sees a request, and the
    // WebSocket server caps its messages; yoga's own limit would stream every body again.
    maxRequestBodySize: false,
    // Same-origin only: the app's pages and server-side callers need no CORS.
    cors: false,
    logging: {
      debug: () => {},
      info: () => {},
      warn: (...args: unknown[]) => apiLog.warn(yogaLogFields(args), yogaLogMessage(args)),
      // Errors the API raised on purpose (bad input, not logged in, ...) are answers, not incidents.
      error: (...args: unknown[]) => {
        if (args.some((arg) => arg instanceof GraphQLError && arg.extensions?.code !== "INTERNAL_SERVER_ERROR")) return;
        if (args.some((arg) => typeof arg === "object" && arg !== null && reported.has(arg))) return;
        apiLog.error(yogaLogFields(args), yogaLogMessage(args));
      },
    },
    landingPage: !config.production,
    graphiql: !config.production,
    maskedErrors: {
      maskError(error, message) {
        // Errors the API raised on purpose (and GraphQL's own) pass; anything else is a bug
        // whose details stay in the server log.
        const original = (error as GraphQLError).originalError ?? error;
        if (original instanceof GraphQLError) return original;
        if (isDatabaseUnavailable(original)) return unavailable(original);
        if (!reported.has(original as object)) apiLog.error({ err: original }, "[graphql] unexpected error:");
        return new GraphQLError(message, { extensions: { code: "INTERNAL_SERVER_ERROR" } });
      },
    },
    plugins: [
      // Builds the context, before any other plugin's hooks read it.
      { onContextBuilding: ({ context }) => fillContext(context as unknown as YogaContext) } satisfies Plugin,
      // Before the result cache: a kept answer is logged and measured too.
      useOperationObserver(metrics, reported),
      // First: an answer kept from before skips the rest of execution, compiling included.
      useResultCache(changes, undefined, metrics),
      useMutationLimit(requestLimits),
      useJitForRepeatedOperations(),
      EnvelopArmorPlugin({
        maxDepth: { n: LIMITS.maxDepth },
        maxAliases: { n: LIMITS.maxAliases },
        costLimit: { enabled: false },
        maxTokens: { n: LIMITS.maxTokens },
        blockFieldSuggestion: { enabled: config.production },
      }),
      useCostLimit(),
      ...(config.production ? [useNoIntrospection()] : []),
      useErrorCodes(),
      useRequestRefusals(),
      // Last: it measures the answer exactly as it will be sent.
      useAnswerSizeLimit(maxAnswerChars),
    ],
  });

  const intervalMs = config.engine?.intervalMs ?? 30_000;
  const leaseMs = config.engine?.leaseMs ?? Math.floor((intervalMs * 2) / 3);
  const leases = createShardLeases({
    db,
    dialect,
    instanceId: config.engine?.instanceId ?? randomUUID(),
    leaseMs,
    aliveMs: 2 * intervalMs,
  });
  const engine = createEngine({ ...services, leases, leaseMs });
  const scheduler = config.scheduler === false ? null : startScheduler(engine, intervalMs);
  const stopFollowing = inbox.follow();
  // It only ends listeners: no kept answer depends on what it reads.
  const stopFollowingSessions = followSessionEnds(changes.reads.exempt(db), services.sessionEnds);

  return {
    yoga,
    services,
    /** The bot engine's pass, shared with the other instances on the database (the scheduler runs it). */
    engine,
    maxAnswerChars,
    /** Shutting down: no engine tick starts any more; the one under way goes on, and `close` waits for it. */
    stopScheduling() {
      void scheduler?.stop();
    },
    /** The general limits per client address, shared with the other instances: the HTTP and WebSocket servers count requests here. */
    requestLimits,
    /** Whether the database answers a `select 1` right now (for /healthz). */
    databaseHealth: createDatabaseProbe(changes.reads.exempt(db), dialect),
    async close() {
      await stopFollowing();
      await stopFollowingSessions();
      await scheduler?.stop();
      await Promise.allSettled([...deliveries]);
      await rateLimits.settled();
      await requestLimits.close();
      await forecasts.flushStores();
      await airQuality.flushStores();
      await db.destroy();
    },
  };
}

export type Api = Awaited<ReturnType<typeof createApi>>;
