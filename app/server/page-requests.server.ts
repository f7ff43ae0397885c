import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import type express from "express";
import { createRequestHandler as createReactRouterHandler, type RouterContextProvider, type ServerBuild } from "react-router";
import { pageBodyOf } from "../lib/page-body.server";

export type ServerBuildSource = ServerBuild | (() => Promise<ServerBuild>);
export type PageHandler = (req: express.Request, res: express.Response, next: express.NextFunction) => Promise<void>;

/**
 * React Router's handler of pages and their data under Express: @react-router/express's, but a page
 * rendered whole (entry.server.tsx, `pageResponse`) is written to the socket in one piece instead of
 * being read back out of a web stream. Every other answer (`.data`, redirects, resource routes) is
 * streamed as that adapter streams it.
 */
export function createPageRequestHandler(options: {
  build: ServerBuildSource;
  mode: string;
  getLoadContext: (req: express.Request) => RouterContextProvider;
}): PageHandler {
  const handleRequest = createReactRouterHandler(options.build, options.mode);
  return async (req, res, next) => {
    try {
      const response = await handleRequest(requestOf(req, res), options.getLoadContext(req));
      await sendResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
}

/** The Fetch API request for an Express request, as @react-router/express makes it (its host and port rules). */
export function requestOf(req: express.Request, res: express.Response): Request {
  const [, forwardedPort] = req.app?.enabled("trust proxy") ? (req.get("X-Forwarded-Host")?.split(":") ?? []) : [];
  const [, hostPort] = req.get("host")?.split(":") ?? [];
  const port = [forwardedPort, hostPort].map((text) => Number.parseInt(text ?? "", 10)).find(Number.isSafeInteger) ?? "";
  const hostname = req.hostname.split(/[\\/?#@]/)[0] || "localhost";
  const url = new URL(`${req.protocol}://${hostname}${port ? `:${port}` : ""}${req.originalUrl}`);

  let controller: AbortController | null = new AbortController();
  res.on("finish", () => (controller = null));
  // The client went away before its answer was sent: loaders and the render stop.
  res.on("close", () => controller?.abort());

  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else if (value) headers.set(name, value);
  }
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new Request(url.href, init);
}

/** Writes a Fetch API response to Express's: a rendered page's bytes at once, any other body as a stream. */
export async function sendResponse(res: express.Response, response: Response): Promise<void> {
  const page = pageBodyOf(response);
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers) res.append(name, value);
  if (page) {
    res.end(page);
    return;
  }
  if (/text\/event-stream/i.test(response.headers.get("Content-Type") ?? "")) res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (res.destroyed || res.writableEnded) return;
    throw error;
  }
}
