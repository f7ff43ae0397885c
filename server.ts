import path from "node:path";
import { fileURLToPath } from "node:url";
import { EnvError, parseEnv, type ServerEnv } from "./app/server/env.server";
import type { AssetSource } from "./app/server/app.server";
import { shutDown } from "./app/server/shutdown.server";

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

/** Vite defines __BUILD_ID__ when it bundles this file; `npm run dev` runs it with tsx, where it is not. */
const built = typeof __BUILD_ID__ === "string";

const env = loadEnv();
if (built && env.NODE_ENV !== "production") {
  // The build has no sources for a development server, and React and every library that reads
  // NODE_ENV load their development builds (slower, chattier) unless it says production: the
  // built server runs in production mode whatever the environment says.
  console.warn(`NODE_ENV=${env.NODE_ENV} ignored: the built server always runs in production mode (npm run dev is the development server)`);
}
if (built) {
  // Before the app is imported: libraries read it when they load.
  process.env.NODE_ENV = "production";
  env.NODE_ENV = "production";
}
const { appModule, assets } = env.NODE_ENV === "development" ? await developmentApp() : await productionApp();
const appServer = await appModule.createAppServer(env, assets);
const { server, logger } = appServer;

server.listen(env.PORT, env.HOST, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  logger.info({ host: env.HOST, port, nodeEnv: env.NODE_ENV }, `Weatherbot listening on http://${env.HOST}:${port} (${env.NODE_ENV})`);
});
server.on("error", (error) => {
  logger.fatal({ err: error }, `Cannot listen on ${env.HOST}:${env.PORT}: ${error.message}`);
  process.exit(1);
});

let shuttingDown = false;
async function shutdown(signal: string) {
  if (shuttingDown) return;
  shuttingDown = true;
  logger.info({ signal }, `${signal} received: finishing the requests under way, then closing`);
  // Only if closing the database itself hangs: the orchestrator's 10 s must not be the one to end it.
  setTimeout(() => {
    logger.error("Shutdown did not finish within 9.5 s: exiting");
    process.exit(1);
  }, 9_500).unref();
  try {
    await shutDown(appServer);
    logger.info("Shutdown complete");
    process.exit(0);
  } catch (error) {
    logger.error({ err: error }, "Shutdown failed");
    process.exit(1);
  }
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
