import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import proxyAddr from "proxy-addr";
import { MAX_REQUEST_BYTES, type Api } from "../../app/api/index.server";
import { answerClientErrors } from "../../app/server/client-errors.server";
import { createGraphQLEndpoint } from "../../app/server/graphql-endpoint.server";
import { clientAddress } from "../../app/server/trusted-proxy.server";
import { isGraphQLPath } from "../../app/shared/graphql-path";
import { healthHandler } from "../../app/server/health.server";
import { attachWebSocket } from "../../app/server/websocket.server";

/**
 * The production server's /graphql handler and WebSocket server for `api`, on a free
 * loopback port, with loopback as a trusted proxy: what the in-process test API and the
 * instance child processes both serve, and /healthz. Imports nothing of vitest (a child process runs it).
 */
export async function serveApi(
  api: Api,
  { buildId }: { buildId: string },
): Promise<{ url: string; port: number; close: () => Promise<void> }> {
  const trust = proxyAddr.compile("loopback");
  const endpoint = createGraphQLEndpoint({ yoga: api.yoga, trust, maxBodyBytes: MAX_REQUEST_BYTES, limits: api.requestLimits });
  // The production server's /healthz (app.server.ts serves it through Express).
  const health = healthHandler(api.databaseHealth, buildId);
  const server: Server = await new Promise((resolve) => {
    const listening = createServer((req, res) => {
      if (isGraphQLPath(req.url)) return endpoint(req, res);
      if (req.url === "/healthz") return health(req, res);
      res.writeHead(404).end();
    }).listen(0, "127.0.0.1", () => resolve(listening));
    answerClientErrors(listening);
  });
  const port = (server.address() as AddressInfo).port;
  const websocket = attachWebSocket(server, api, clientAddress(trust));
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    port,
    async close() {
      await websocket.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
