import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { graphqlProxy, hostedGraphQLFetch } from "~/server/graphql-proxy.server";
import { attachRequestId } from "~/server/request-id.server";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

const listen = (server: Server) =>
  new Promise<string>((resolve) => {
    servers.push(server);
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });

describe("the hosted-API proxy", () => {
  it("never lets an answer be stored: it was asked with the visitor's session token", async () => {
    // A hosted API that would let caches keep its answers.
    const hosted = await listen(
      createServer((_req, res) => {
        res.writeHead(200, { "content-type": "application/json", "cache-control": "public, max-age=600" });
        res.end(JSON.stringify({ data: { me: { email: "a@example.com" } } }));
      }),
    );
    const app = express();
    app.all("/graphql", graphqlProxy(`${hosted}/graphql`));
    const front = await listen(createServer(app));
    const response = await fetch(`${front}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: "weatherbot_session=token" },
      // Bytes passed through to a fake hosted API (what the proxy forwards is the test), not an operation of the app's.
      body: JSON.stringify({ query: "{ me { email } }" }),
    });
    expect(await response.json()).toEqual({ data: { me: { email: "a@example.com" } } });
    expect(response.headers.get("cache-control")).toBe("private, no-store");
  });

  it("passes the request's id on to the hosted API, from the browser's /graphql and from the loaders", async () => {
    const seen: Array<string | undefined> = [];
    const hosted = await listen(
      createServer((req, res) => {
        seen.push(req.headers["x-request-id"] as string | undefined);
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ data: { ok: true } }));
      }),
    );
    const app = express();
    app.use((req, _res, next) => {
      attachRequestId(req, "page-request-7");
      next();
    });
    app.all("/graphql", graphqlProxy(`${hosted}/graphql`));
    const front = await listen(createServer(app));
    const body = JSON.stringify({ query: "{ ok }" });
    await fetch(`${front}/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body });
    await hostedGraphQLFetch(`${hosted}/graphql`, "loader-request-8")("http://weatherbot.internal/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    expect(seen).toEqual(["page-request-7", "loader-request-8"]);
  });
});
