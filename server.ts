import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";
import { RouterContextProvider, type RouterContext, type ServerBuild } from "react-router";
import { createApi, MAX_REQUEST_BYTES, type Api } from "./app/api/index.server";
import { attachWebSocket } from "./app/server/websocket.server";
import { offlinePageHeader } from "./app/lib/csp.server";
import { EnvError, parseEnv, type ServerEnv } from "./app/lib/env.server";
import {
  clientAddress,
  createGraphQLEndpoint,
  GRAPHQL_PATH,
  inProcessGraphQLFetch,
  isGraphQLPath,
} from "./app/server/graphql-endpoint.server";
import { graphqlProxy, hostedGraphQLFetch } from "./app/server/graphql-proxy.server";
import { sameOriginWrites } from "./app/server/same-origin.server";
import { securityHeaders } from "./app/server/security-headers.server";

/**
 * Weatherbot's one Node process: client assets, /healthz, the build-id check, the
 * embedded GraphQL API at /graphql and the React Router server render.
 */

function loadEnv(): ServerEnv {
  try {
    return parseEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

const env = loadEnv();
const here = path.dirname(fileURLToPath(import.meta.url));
// Bundled, this file is build/server.js; run from source (dev), it sits at the project root.
const buildDir = path.basename(here) === "build" ? here : path.join(here, "build");

type BuildWithId = ServerBuild & {
  entry: { module: { buildId?: string; graphqlFetchContext: RouterContext<typeof fetch> } };
};

async function createBuildSource(app: express.Express): Promise<() => Promise<BuildWithId>> {
  if (env.NODE_ENV === "development") {
    const vite = await import("vite");
    const devServer = await vite.createServer({ server: { middlewareMode: true } });
    app.use(devServer.middlewares);
    return () => devServer.ssrLoadModule("virtual:react-router/server-build") as Promise<BuildWithId>;
  }
  const build = (await import(pathToFileURL(path.join(buildDir, "server/index.js")).href)) as BuildWithId;
  const clientDir = path.join(buildDir, "client");
  const offlinePage = path.join(clientDir, "offline.html");
  const offlinePageCsp = existsSync(offlinePage) ? offlinePageHeader(readFileSync(offlinePage, "utf8")) : null;
  // Hashed file names change with their content: cache them for a year.
  app.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }));
  app.use(
    express.static(clientDir, {
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
    }),
  );
  return async () => build;
}

/** Where /graphql and the loaders' operations go: the embedded API, or a hosted one (GRAPHQL_URL). */
type GraphQLBackend = { kind: "embedded"; api: Api } | { kind: "hosted"; url: string };

export async function createServerApp(backend: GraphQLBackend) {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", env.TRUST_PROXY);
  app.use(securityHeaders(app.get("trust proxy fn")));
  app.use(compression());
  app.use(sameOriginWrites);

  // The embedded API's /graphql is served beside this app (the HTTP server below); a hosted one is proxied here.
  if (backend.kind === "hosted") app.all(GRAPHQL_PATH, graphqlProxy(backend.url));

  const getBuild = await createBuildSource(app);
  const buildId = async () => (await getBuild()).entry.module.buildId ?? "unknown";

  app.get("/healthz", async (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    res.json({ status: "ok", buildId: await buildId() });
  });
  // TEST_HOOKS=1 lets the end-to-end suite announce another build without rebuilding.
  let announcedBuildId: string | null = null;
  if (env.TEST_HOOKS) {
    app.post("/__test/announce-build", express.json(), (req, res) => {
      announcedBuildId = typeof req.body?.id === "string" ? req.body.id : null;
      res.status(204).end();
    });
  }
  app.get("/builds/latest.json", async (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    res.json({ id: announcedBuildId ?? (await buildId()) });
  });

  app.all(
    "/{*splat}",
    createRequestHandler({
      build: getBuild,
      mode: env.NODE_ENV,
      async getLoadContext(req) {
        // Loaders and actions call the embedded API in-process, as this client address.
        const context = new RouterContextProvider();
        const graphqlFetch =
          backend.kind === "hosted" ? hostedGraphQLFetch(backend.url) : inProcessGraphQLFetch(backend.api.yoga.fetch, req.ip ?? "unknown");
        context.set((await getBuild()).entry.module.graphqlFetchContext, graphqlFetch);
        return context;
      },
    }),
  );
  return app;
}

// With GRAPHQL_URL the app is a front end for a hosted API: no database, no bot here.
const api = env.GRAPHQL_URL
  ? null
  : await createApi({
      production: env.NODE_ENV === "production",
      dataDir: env.DATA_DIR,
      databaseUrl: env.DATABASE_URL,
      openMeteoForecastUrl: env.OPEN_METEO_FORECAST_URL,
      openMeteoGeocodingUrl: env.OPEN_METEO_GEOCODING_URL,
      pushSubject: env.VAPID_SUBJECT,
      pushAllowLoopback: env.PUSH_ALLOW_LOOPBACK,
    });
const app = await createServerApp(api ? { kind: "embedded", api } : { kind: "hosted", url: env.GRAPHQL_URL! });
// "trust proxy fn" is Express's compiled TRUST_PROXY: /graphql reads client addresses exactly as the other routes do.
const graphqlEndpoint = api
  ? createGraphQLEndpoint({ yoga: api.yoga, trust: app.get("trust proxy fn"), maxBodyBytes: MAX_REQUEST_BYTES })
  : null;
const server = createServer((req, res) => (graphqlEndpoint && isGraphQLPath(req.url) ? graphqlEndpoint(req, res) : app(req, res)));
// Idle connections are kept longer than a reverse proxy keeps its own (nginx: 60 s) and than
// clients wait between requests: with Node's 5 s, a request sent on a connection the server was
// closing at that moment failed with ECONNRESET (seen on a busy machine).
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;
server.listen(env.PORT, env.HOST, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  console.log(`Weatherbot listening on http://${env.HOST}:${port} (${env.NODE_ENV})`);
});
const websocket = api ? attachWebSocket(server, api, clientAddress(app.get("trust proxy fn"))) : null;
server.on("error", (error) => {
  console.error(`Cannot listen on ${env.HOST}:${env.PORT}: ${error.message}`);
  process.exit(1);
});

function shutdown(signal: string) {
  console.log(`${signal} received: closing connections`);
  server.close(() => void (api?.close() ?? Promise.resolve()).finally(() => process.exit(0)));
  void websocket?.close();
  server.closeIdleConnections();
  // Requests still running after 10 s are cut off rather than holding the shutdown.
  setTimeout(() => {
    server.closeAllConnections();
    process.exit(0);
  }, 10_000).unref();
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
