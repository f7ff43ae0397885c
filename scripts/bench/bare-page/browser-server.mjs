/**
 * The bare baseline as a browser loads it (Lighthouse, scripts/bench/blocking-time.ts): its
 * production build's assets, compressed and cached as the app's server sends its own, and
 * React Router's Express handler for the pages. server.mjs, for the HTML benchmark, has neither.
 *
 *   NODE_ENV=production PORT=3100 BARE_PAGE_BUILD=build/bench-bare-page/server/index.js \
 *     BARE_PAGE_FIXTURE=fixture.json node scripts/bench/bare-page/browser-server.mjs
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";

const entry = path.resolve(process.env.BARE_PAGE_BUILD ?? "build/bench-bare-page/server/index.js");
const build = await import(pathToFileURL(entry).href);
const app = express();
app.use(compression());
app.use("/assets", express.static(path.join(path.dirname(entry), "../client/assets"), { immutable: true, maxAge: "1y", index: false }));
// The bare page has no icon; the browser asks anyway, and React Router would log each 404 at length.
app.get("/favicon.ico", (_request, response) => void response.status(204).end());
app.use(createRequestHandler({ build, mode: "production" }));
app.listen(Number(process.env.PORT ?? 3100), "127.0.0.1", () => console.log(`listening on ${process.env.PORT}`));
process.on("SIGTERM", () => process.exit(0));
