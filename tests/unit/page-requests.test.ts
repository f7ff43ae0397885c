import { createServer, request as httpRequest, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { createRequestHandler } from "@react-router/express";
import express from "express";
import type { ServerBuild } from "react-router";
import { afterEach, describe, expect, it } from "vitest";

/*
 * Pages are served by @react-router/express's handler as it ships (app/server/app.server.ts). What the app relies on
 * from it, with a build of two routes: a page, whose answer is whatever the entry's `handleRequest` gives, and a
 * resource route at /seen, whose loader hands over the request React Router was given.
 */

// React Router as the adapter requires it: Node loads the adapter itself, not Vite, and a RouterContextProvider of the
// copy Vite hands this file would be another class to it. (The built server bundles one copy for both.)
const { RouterContextProvider } = createRequire(import.meta.url)("react-router") as typeof import("react-router");

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

const listen = (app: express.Express) =>
  new Promise<string>((resolve) => {
    const server = createServer(app);
    servers.push(server);
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });

function buildOf(options: { page?: () => Response; seen?: (request: Request) => Promise<Response> | Response }): ServerBuild {
  const route = (id: string, path: string | undefined, module: object, parentId?: string) => ({
    id,
    path,
    parentId,
    index: undefined,
    caseSensitive: undefined,
    module,
  });
  const asset = (id: string, path: string | undefined, parentId: string | undefined, hasLoader: boolean) => ({
    id,
    path,
    parentId,
    module: `/${id}.js`,
    hasAction: false,
    hasLoader,
    hasClientAction: false,
    hasClientLoader: false,
    hasClientMiddleware: false,
    hasErrorBoundary: false,
  });
  return {
    entry: {
      module: {
        default: () => options.page?.() ?? new Response("<!DOCTYPE html><p>page</p>", { headers: { "Content-Type": "text/html" } }),
      },
    },
    routes: {
      root: route("root", "", { default: () => null }),
      page: route("page", "page", { default: () => null }, "root"),
      seen: route("seen", "seen", { loader: ({ request }: { request: Request }) => options.seen?.(request) ?? new Response(null) }, "root"),
    },
    assets: {
      entry: { module: "/entry.js", imports: [] },
      routes: {
        root: asset("root", "", undefined, false),
        page: asset("page", "page", "root", false),
        seen: asset("seen", "seen", "root", true),
      },
      url: "/manifest.js",
      version: "test",
    },
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: { v8_middleware: true },
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "initial", manifestPath: "/__manifest" },
  } as unknown as ServerBuild;
}

/** An Express app serving `build` as app.server.ts serves pages. */
function serving(build: ServerBuild, trustProxy = false) {
  const app = express();
  app.set("trust proxy", trustProxy);
  app.all("/{*splat}", createRequestHandler({ build, mode: "production", getLoadContext: () => new RouterContextProvider() }));
  return listen(app);
}

describe("a page's answer", () => {
  it("carries the entry's status, every header and the whole body", async () => {
    const html = `<!DOCTYPE html><p>${"Ünïcödé weather ☀ ".repeat(2_000)}</p>`;
    const headers = new Headers({ "Content-Type": "text/html; charset=utf-8", "Cache-Control": "private, no-store" });
    headers.append("Set-Cookie", "a=1; Path=/");
    headers.append("Set-Cookie", "b=2; Path=/");
    const base = await serving(buildOf({ page: () => new Response(html, { status: 404, headers }) }));
    const response = await fetch(`${base}/page`);

    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(response.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    expect(await response.text()).toBe(html);
  });

  it("of any other kind (data, a resource) is streamed as it comes", async () => {
    const parts = ["one,", "two,", "three"];
    const stream = new ReadableStream({
      pull(controller) {
        const part = parts.shift();
        if (part === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(part));
      },
    });
    const base = await serving(buildOf({ seen: () => new Response(stream, { headers: { "Content-Type": "text/x-script" } }) }));
    expect(await (await fetch(`${base}/seen`)).text()).toBe("one,two,three");
  });

  it("without a body ends the answer (a redirect)", async () => {
    const base = await serving(buildOf({ seen: () => new Response(null, { status: 302, headers: { Location: "/settings" } }) }));
    const response = await fetch(`${base}/seen`, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/settings");
  });
});

describe("the request React Router is handed", () => {
  async function seenBy(trustProxy: boolean, path: string, init?: RequestInit) {
    const seen: Request[] = [];
    const base = await serving(
      buildOf({
        seen: (request) => {
          seen.push(request);
          return new Response(null, { status: 204 });
        },
      }),
      trustProxy,
    );
    await fetch(`${base}${path}`, init);
    return { base, request: seen[0]! };
  }

  it("has the address the browser asked for, with its method and headers, and no host an untrusted proxy names", async () => {
    const { base, request } = await seenBy(false, "/seen?section=account", {
      headers: { "Accept-Language": "fr-FR", "X-Forwarded-Host": "evil.example:444" },
    });
    expect(request.url).toBe(`${base}/seen?section=account`);
    expect(request.method).toBe("GET");
    expect(request.headers.get("accept-language")).toBe("fr-FR");
  });

  it("takes the host a trusted proxy names", async () => {
    const { request } = await seenBy(true, "/seen", {
      headers: { "X-Forwarded-Host": "weather.example:8443", "X-Forwarded-Proto": "https" },
    });
    expect(request.url).toBe("https://weather.example:8443/seen");
  });

  it("is aborted when the browser goes away before its answer", async () => {
    let received: (request: Request) => void = () => {};
    const handed = new Promise<Request>((resolve) => (received = resolve));
    // Never answered until the browser leaves.
    const base = await serving(
      buildOf({
        seen: (request) => {
          received(request);
          return new Promise((resolve) => request.signal.addEventListener("abort", () => resolve(new Response(null))));
        },
      }),
    );
    const client = httpRequest(`${base}/seen`);
    client.on("error", () => {});
    client.end();
    const request = await handed;
    expect(request.signal.aborted).toBe(false);
    const aborted = new Promise((resolve) => request.signal.addEventListener("abort", resolve));
    client.destroy();
    await aborted;
    expect(request.signal.aborted).toBe(true);
  });
});
