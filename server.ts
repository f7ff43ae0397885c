import path from "node:path";
import { fileURLToPath } from "node:url";
import { EnvError, parseEnv, type ServerEnv } from "./app/lib/env.server";
import type { AssetSource } from "./app/server/app.server";

/**
 * The process: reads the environment, builds the app server (app/server/app.server.ts), listens,
 * and shuts down on a signal. Built, this file is build/server/index.js (Vite's SSR build,
 * with the app and the React Router build); in development tsx runs it and Vite loads the app.
 */

function loadEnv(): ServerEnv {
  try {
    return parseEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      // Before any logger exists, and read by a person starting the server: plain text on stderr.
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

type AppModule = typeof import("./app/server/app.server");

/** Development: Vite serves the assets and loads the app, so the routes it renders are the ones being edited. */
async function developmentApp(): Promise<{ appModule: AppModule; assets: AssetSource }> {
  const vite = await import("vite");
  const devServer = await vite.createServer({ server: { middlewareMode: true } });
  // Vite's module loader is untyped; this is the module productionApp imports.
  const appModule = (await devServer.ssrLoadModule("/app/server/app.server.ts")) as AppModule;
  return { appModule, assets: { kind: "vite", vite: devServer } };
}

/** Production: the app is part of this bundle; the client build sits beside it (build/client). */
async function productionApp(): Promise<{ appModule: AppModule; assets: AssetSource }> {
  const clientDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "../client");
  return { appModule: await import("./app/server/app.server"), assets: { kind: "static", clientDir } };
}

const env = loadEnv();
const { appModule, assets } = env.NODE_ENV === "development" ? await developmentApp() : await productionApp();
const { server, closeWebSockets, closeApi, logger } = await appModule.createAppServer(env, assets);

server.listen(env.PORT, env.HOST, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  logger.info({ host: env.HOST, port, nodeEnv: env.NODE_ENV }, `Weatherbot listening on http://${env.HOST}:${port} (${env.NODE_ENV})`);
});
server.on("error", (error) => {
  logger.fatal({ err: error }, `Cannot listen on ${env.HOST}:${env.PORT}: ${error.message}`);
  process.exit(1);
});

function shutdown(signal: string) {
  logger.info({ signal }, `${signal} received: closing connections`);
  server.close(() => void closeApi().finally(() => process.exit(0)));
  void closeWebSockets();
  server.closeIdleConnections();
  // Requests still running after 10 s are cut off rather than holding the shutdown.
  setTimeout(() => {
    server.closeAllConnections();
    process.exit(0);
  }, 10_000).unref();
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
