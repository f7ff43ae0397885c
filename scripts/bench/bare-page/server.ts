/**
 * The bare baseline's server: React Router's Node request listener over its production build,
 * on node's HTTP server, and nothing else (no compression, no static files, no middleware).
 *
 *   NODE_ENV=production PORT=3100 BARE_PAGE_BUILD=build/bench-bare-page/server/index.js \
 *     BARE_PAGE_FIXTURE=fixture.json node --import tsx scripts/bench/bare-page/server.ts
 */
import { createServer } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestListener } from "@react-router/node";
import type { ServerBuild } from "react-router";

const build = (await import(
  pathToFileURL(path.resolve(process.env.BARE_PAGE_BUILD ?? "build/bench-bare-page/server/index.js")).href
)) as ServerBuild;
const server = createServer(createRequestListener({ build, mode: "production" }));
server.listen(Number(process.env.PORT ?? 3100), "127.0.0.1", () => console.log(`listening on ${process.env.PORT}`));
process.on("SIGTERM", () => process.exit(0));
