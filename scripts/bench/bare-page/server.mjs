/**
 * The bare baseline's server: React Router's Node request listener over its production build,
 * on node's HTTP server, and nothing else (no compression, no static files, no middleware).
 * Plain JavaScript, so that node runs it as the app's server runs: no loader in between.
 *
 *   NODE_ENV=production PORT=3100 BARE_PAGE_BUILD=build/bench-bare-page/server/index.js \
 *     BARE_PAGE_FIXTURE=fixture.json node scripts/bench/bare-page/server.mjs
 */
import { createServer } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestListener } from "@react-router/node";

const entry = path.resolve(process.env.BARE_PAGE_BUILD ?? "build/bench-bare-page/server/index.js");
const build = await import(pathToFileURL(entry).href);
const server = createServer(createRequestListener({ build, mode: "production" }));
// The app's server keeps idle connections as long (a proxy's pool in front of it).
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 3100), "127.0.0.1", () => console.log(`listening on ${process.env.PORT}`));
process.on("SIGTERM", () => process.exit(0));
