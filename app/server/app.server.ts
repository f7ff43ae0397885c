import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import path from "node:path";
import compression from "compression";
import express from "express";
import { createRequestHandler } from "@react-router/express";
import { RouterContextProvider, type ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { createApi, MAX_REQUEST_BYTES, type Api } from "../api/index.server";
import { createRequestLimits, type RequestLimits } from "../api/request-limits.server";
import { offlinePageHeader } from "./csp.server";
import { publicUrl, type ServerEnv } from "./env.server";
import { graphqlFetchContext, graphqlQueryRunnerContext } from "../lib/graphql/executor-context";
import { lazyChunksContext, type LazyChunks } from "../lib/lazy-chunks-context";
import { requestLogContext } from "../lib/request-log-context";
import { GRAPHQL_PATH, isGraphQLPath } from "../shared/graphql-path";
import { createGraphQLEndpoint, inProcessGraphQLFetch } from "./graphql-endpoint.server";
import { lazyChunksOf } from "./lazy-chunks.server";
import { graphqlProxy, hostedGraphQLFetch } from "./graphql-proxy.server";
import { healthHandler } from "./health.server";
import { inProcessQueryRunner } from "./in-process-queries.server";
import { createLogger, type Logger } from "./logger.server";
import { answerClientErrors } from "./client-errors.server";
import { createServerMetrics, isMetricsPath, metricsEndpoint } from "./metrics.server";
import { cookieSecrets } from "./secrets.server";
import { attachRequestId, requestIdOf } from "./request-id.server";
import { observeRequests } from "./request-log.server";
import { refusedOverLimit } from "./request-limit.server";
import { pageRefusal } from "./request-limit-page.server";
import { sameOriginWrites } from "./same-origin.server";
import { securityHeaders } from "./security-headers.server";
import { clientAddress } from "./trusted-proxy.server";
import { attachWebSocket } from "./websocket.server";

/**
 * Weatherbot's HTTP side, as one factory for server.ts (which only reads the environment,
 * listens and shuts down): client assets, /healthz, the build-id check, the embedded GraphQL
 * API at /graphql (HTTP and WebSocket) and the React Router server render. In a build this
 * module and the React Router build are one Vite SSR bundle, so the context key the loaders
 * read is the very one set here.
 */

/** Where the client assets come from: Vite's dev server, or the client build's folder. */
export type AssetSource = { kind: "vite"; vite: ViteDevServer } | { kind: "static"; clientDir: string };

/** Where /graphql and the loaders' operations go: the embedded API, or a hosted one (GRAPHQL_URL). */
type GraphQLBackend = { kind: "embedded"; api: Api } | { kind: "hosted"; url: string };

export type AppServer = {
  /** Not listening yet: server.ts decides where. */
  server: Server;
  /**
   * The first step of a shutdown: every answer from now on closes its connection (a client's
   * next request opens a new one, which a stopped listener refuses or another instance takes),
   * and the bot starts no more ticks.
   */
  drain: () => void;
  /** Closes the GraphQL WebSocket connections with 1012 once what is under way on them is answered. */
  closeWebSockets: () => Promise<void>;
  /** Waits for the bot's tick under way, then closes the database, once no request is running. */
  closeApi: () => Promise<void>;
  /** The server's JSON log (LOG_LEVEL), for server.ts's own lines. */
  logger: Logger;
};

function serveStatic(app: express.Express, clientDir: string) {
  const offlinePage = path.join(clientDir, "offline.html");
  const offlinePageCsp = existsSync(offlinePage) ? offlinePageHeader(readFileSync(offlinePage, "utf8")) : null;
  // Hashed file names change with their content: cache them for a year.
  app.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }));
  // Only what the build put at the top level: every page request would otherwise cost a
  // file-system lookup first (a few per cent of a signed-in page).
  // Not .vite/: the build's manifest is the server's to read (lazy-chunks.server.ts), not a file to serve.
  const topLevel = new Set(readdirSync(clientDir).filter((name) => name !== "assets" && !name.startsWith(".")));
  const files = express.static(clientDir, {
    index: false,
    maxAge: "1h",
    setHeaders(res, filePath) {
      // The service worker and its manifest must always be revalidated, or updates stall.
      if (/(^|[/\\])(sw\.js|manifest\.webmanifest|workbox-[^/\\]*\.js)$/.test(filePath)) {
        res.setHeader("Cache-Control", "no-cache");
      }
      // The offline page has no server render: its CSP (inline script and style by hash) is fixed at build time.
      if (filePath === offlinePage && offlinePageCsp) res.setHeader("Content-Security-Policy", offlinePageCsp);
    },
  });
  app.use((req, res, next) => (topLevel.has(req.path.split("/")[1] ?? "") ? files(req, res, next) : next()));
}

/**
 * React Router's handler of pages, made once its build is here. In production it is given the build
 * itself, loaded once: handed a function, React Router derives its routes and handlers again on every
 * request (some 2 % of a page's CPU). The handler comes as a promise because the build must not be
 * awaited during start-up: a chunk of it imports from the process's entry, whose top-level await would
 * then never end. In development it is given a function that loads the build on every request, so Vite
 * hands over the routes as they are edited.
 */
type ServerBuildSource = ServerBuild | (() => Promise<ServerBuild>);
type PageHandler = ReturnType<typeof createRequestHandler>;

function pageHandler(
  assets: AssetSource,
  handler: (build: ServerBuildSource, lazyChunks: LazyChunks) => PageHandler,
): Promise<PageHandler> {
  const load = () => import("virtual:react-router/server-build");
  if (assets.kind === "vite") return Promise.resolve(handler(load, () => []));
  return load().then((build) => handler(build, lazyChunksOf(assets.clientDir, build.assets)));
}

function createExpressApp(
  env: ServerEnv,
  backend: GraphQLBackend,
  assets: AssetSource,
  logger: Logger,
  limits: RequestLimits,
): express.Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", env.TRUST_PROXY);
  app.use(securityHeaders(app.get("trust proxy fn")));
  app.use(compression());
  app.use(sameOriginWrites);

  // The embedded API's /graphql is served beside this app (see createAppServer); a hosted one is proxied here.
  if (backend.kind === "hosted") app.all(GRAPHQL_PATH, graphqlProxy(backend.url, logger));

  if (assets.kind === "vite") app.use(assets.vite.middlewares);
  else serveStatic(app, assets.clientDir);

  app.get("/healthz", healthHandler(backend.kind === "embedded" ? backend.api.databaseHealth : null, __BUILD_ID__));
  // TEST_HOOKS=1 lets the end-to-end suite announce another build without rebuilding.
  let announcedBuildId: string | null = null;
  if (env.TEST_HOOKS) {
    app.post("/__test/announce-build", express.json(), (req, res) => {
      announcedBuildId = typeof req.body?.id === "string" ? req.body.id : null;
      res.status(204).end();
    });
  }
  app.get("/builds/latest.json", (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    res.json({ id: announcedBuildId ?? __BUILD_ID__ });
  });

  // Pages and their data count against the general limit (the embedded /graphql counts in its own
  // handler); assets, health checks and a hosted API's /graphql, which limits on its own, do not.
  app.use((req, res, next) => {
    if (!refusedOverLimit(limits, "requests", req.ip ?? "unknown", req, res, pageRefusal)) next();
  });

  const pages = pageHandler(assets, (build, lazyChunks) =>
    createRequestHandler({
      build,
      mode: env.NODE_ENV,
      getLoadContext(req) {
        // Loaders and actions call the embedded API in-process, as this client address, under this request's id.
        const context = new RouterContextProvider();
        const requestId = requestIdOf(req) ?? "";
        const graphqlFetch =
          backend.kind === "hosted"
            ? hostedGraphQLFetch(backend.url, requestId)
            : inProcessGraphQLFetch(backend.api.yoga.fetch, req.ip ?? "unknown", requestId);
        context.set(graphqlFetchContext, graphqlFetch);
        if (backend.kind === "embedded")
          context.set(
            graphqlQueryRunnerContext,
            inProcessQueryRunner(backend.api, req.ip ?? "unknown", requestId, (fields, message) => logger.error(fields, message)),
          );
        context.set(requestLogContext, { requestId, logger });
        context.set(lazyChunksContext, lazyChunks);
        return context;
      },
    }),
  );
  app.all("/{*splat}", async (req, res, next) => (await pages)(req, res, next));
  // What no route caught: logged with the request's id, which the answer names too.
  app.use((error: unknown, req: express.Request, res: express.Response, next: express.NextFunction) => {
    const reqId = requestIdOf(req);
    logger.error({ reqId, err: error }, "[http] unhandled error");
    if (res.headersSent) return next(error);
    res.status(500).type("text/plain").send(`Internal Server Error (request id ${reqId})`);
  });
  return app;
}

export async function createAppServer(env: ServerEnv, assets: AssetSource): Promise<AppServer> {
  const logger = createLogger(env.LOG_LEVEL);
  const metrics = createServerMetrics();
  // With GRAPHQL_URL the app is a front end for a hosted API: no database, no bot here.
  const api = env.GRAPHQL_URL
    ? null
    : await createApi({
        production: env.NODE_ENV === "production",
        dataDir: env.DATA_DIR,
        databaseUrl: env.DATABASE_URL,
        databasePoolSize: env.DATABASE_POOL_SIZE,
        openMeteoForecastUrl: env.OPEN_METEO_FORECAST_URL,
        openMeteoGeocodingUrl: env.OPEN_METEO_GEOCODING_URL,
        openMeteoAirQualityUrl: env.OPEN_METEO_AIR_QUALITY_URL,
        nwsAlertsUrl: env.NWS_ALERTS_URL,
        meteoAlarmUrl: env.METEOALARM_URL,
        pushSubject: env.VAPID_SUBJECT,
        pushAllowLoopback: env.PUSH_ALLOW_LOOPBACK,
        passwordHashCost: env.PASSWORD_HASH_COST,
        logger,
        metrics: metrics.api,
        requestLimits: { requestsPerMinute: env.REQUEST_LIMIT, mutationsPerMinute: env.MUTATION_LIMIT },
        engine: {
          shards: env.ENGINE_SHARDS,
          messageRetentionDays: env.MESSAGE_RETENTION_DAYS,
          refreshSpread: env.ENGINE_REFRESH_SPREAD,
        },
        // MAIL_FROM comes with SMTP_URL (the environment's check says so).
        mail:
          env.SMTP_URL && env.MAIL_FROM
            ? { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, publicUrl: publicUrl(env), secret: cookieSecrets()[0]! }
            : undefined,
      });
  // In front of a hosted API there is no database to share counts through: each instance counts alone.
  const limits =
    api?.requestLimits ??
    createRequestLimits({ requestsPerMinute: env.REQUEST_LIMIT, mutationsPerMinute: env.MUTATION_LIMIT }, { db: null });
  const app = createExpressApp(env, api ? { kind: "embedded", api } : { kind: "hosted", url: env.GRAPHQL_URL! }, assets, logger, limits);
  // "trust proxy fn" is Express's compiled TRUST_PROXY: /graphql reads client addresses exactly as the other routes do.
  const trust = app.get("trust proxy fn");
  const graphqlEndpoint = api
    ? createGraphQLEndpoint({
        yoga: api.yoga,
        trust,
        maxBodyBytes: MAX_REQUEST_BYTES,
        limits,
        logError: (fields, message) => logger.error(fields, message),
      })
    : null;
  // Every request gets its id and log line first; /metrics, like /graphql, is answered beside Express.
  const observe = observeRequests({ trust, logger, metrics });
  const serveMetrics = metricsEndpoint({
    registry: metrics.registry,
    allow: env.METRICS_ALLOW,
    token: env.METRICS_TOKEN,
    clientIp: clientAddress(trust),
    trust,
  });
  // Answers under way when the server starts draining, so each one's connection closes after it.
  let draining = false;
  const answering = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    if (draining) res.setHeader("Connection", "close");
    else {
      answering.add(res);
      res.once("close", () => answering.delete(res));
    }
    const observation = observe(req, res);
    if (graphqlEndpoint && isGraphQLPath(req.url)) return graphqlEndpoint(req, res, observation);
    if (isMetricsPath(req.url)) return serveMetrics(req, res);
    attachRequestId(req, observation.id);
    app(req, res);
  });
  const closeAfterAnswers = () => {
    for (const res of answering) {
      if (!res.headersSent) res.setHeader("Connection", "close");
      // Its headers promised keep-alive: the connection ends once the answer is sent in full.
      else res.once("finish", () => res.req.socket.end());
    }
  };
  // Idle connections are kept longer than a reverse proxy keeps its own (nginx: 60 s) and than
  // clients wait between requests: with Node's 5 s, a request sent on a connection the server was
  // closing at that moment failed with ECONNRESET (seen on a busy machine).
  server.keepAliveTimeout = 65_000;
  answerClientErrors(server);
  server.headersTimeout = 66_000;
  const websocket = api ? attachWebSocket(server, api, clientAddress(trust)) : null;
  return {
    server,
    drain() {
      draining = true;
      closeAfterAnswers();
      api?.stopScheduling();
    },
    closeWebSockets: () => websocket?.close() ?? Promise.resolve(),
    closeApi: () => api?.close() ?? Promise.resolve(),
    logger,
  };
}
