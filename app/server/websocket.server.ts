import type { IncomingMessage, Server } from "node:http";
import { getOperationAST, type ExecutionArgs } from "graphql";
import { useServer } from "graphql-ws/use/ws";
import { WebSocket, WebSocketServer } from "ws";
import { limitAnswer } from "../api/answer-size.server";
import type { WatchedSession } from "../api/auth/session-ends.server";
import { tooManyRequests } from "../api/request-limits.server";
import { MAX_REQUEST_BYTES, type Api } from "../api/index.server";
import { GRAPHQL_PATH } from "../shared/graphql-path";
import { prepareOperation } from "./prepared-operation.server";

type ConnectionParams = { authorization?: unknown; token?: unknown };

/**
 * graphql-ws (graphql-transport-ws) at /graphql on the app's own HTTP server. The token
 * comes from connection_init (`{ authorization: "Bearer …" }` or `{ token }`) or, for the
 * app's own pages, from the session cookie of the upgrade request; a browser upgrade from
 * another site is refused (cross-site WebSocket hijacking). `clientIp` reads the upgrade
 * request's client address as the HTTP endpoint does (behind a trusted proxy, the address
 * it forwards), so log-ins over either count against the same per-address limit.
 */
export function attachWebSocket(
  server: Server,
  api: Api,
  clientIp: (request: IncomingMessage) => string = (request) => request.socket.remoteAddress ?? "unknown",
): { close: (graceMs?: number) => Promise<void> } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_REQUEST_BYTES });
  let shuttingDown = false;

  server.on("upgrade", (request: IncomingMessage, socket, head) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (url.pathname !== GRAPHQL_PATH) return;
    const verdict = api.requestLimits.take("requests", clientIp(request));
    if (verdict.limited) {
      socket.end(`HTTP/1.1 429 Too Many Requests\r\nRetry-After: ${verdict.retryAfterSeconds}\r\nConnection: close\r\n\r\n`);
      return;
    }
    if (shuttingDown) {
      // An upgrade on a connection still open while the server shuts down: the client retries elsewhere or later.
      socket.end("HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nConnection: close\r\n\r\n");
      return;
    }
    const origin = request.headers.origin;
    if (origin) {
      let sameHost = false;
      try {
        sameHost = new URL(origin).host === request.headers.host;
      } catch {
        sameHost = false;
      }
      if (!sameHost) {
        socket.end("HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n");
        return;
      }
    }
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit("connection", ws, request));
  });

  // A socket that spoke for a session closes when the session ends (log-out, expiry) with
  // 4401, which graphql-ws clients, ours included, do not retry; when the server shuts down,
  // with 1012 ("service restart"), which they retry. Queries and mutations under way on it are
  // answered first (a log-out sent over this very socket gets its `true`).
  type CloseWith = { code: number; reason: string };
  type SocketState = { sessions: Map<string, () => void>; oneShots: Set<string>; closing: CloseWith | null };
  const SESSION_ENDED: CloseWith = { code: 4401, reason: "Unauthorized: the session has ended" };
  const RESTART: CloseWith = { code: 1012, reason: "Service restart" };
  const sockets = new WeakMap<WebSocket, SocketState>();
  const stateOf = (socket: WebSocket): SocketState => {
    let state = sockets.get(socket);
    if (!state) {
      const created: SocketState = { sessions: new Map(), oneShots: new Set(), closing: null };
      state = created;
      sockets.set(socket, created);
      socket.once("close", () => {
        for (const stop of created.sessions.values()) stop();
        created.sessions.clear();
      });
    }
    return state;
  };
  const closeIfIdle = (socket: WebSocket, state: SocketState) => {
    // After the answer under way has been sent in full (graphql-ws sends its "complete" after onComplete).
    const closing = state.closing;
    if (closing && state.oneShots.size === 0) setImmediate(() => socket.close(closing.code, closing.reason));
  };
  function closeWhenSessionEnds(socket: WebSocket, session: WatchedSession) {
    const state = stateOf(socket);
    if (state.sessions.has(session.id) || socket.readyState !== WebSocket.OPEN) return;
    state.sessions.set(
      session.id,
      api.services.sessionEnds.watch(session, () => {
        state.closing ??= SESSION_ENDED;
        closeIfIdle(socket, state);
      }),
    );
  }

  const cleanup = useServer<ConnectionParams, { request: IncomingMessage }>(
    {
      execute: (args) => (args.rootValue as { execute: (a: ExecutionArgs) => unknown }).execute(args) as never,
      subscribe: (args) => (args.rootValue as { subscribe: (a: ExecutionArgs) => unknown }).subscribe(args) as never,
      // The same answer size limit as over HTTP, for this operation alone.
      onNext: (_ctx, _id, _payload, _args, result) => limitAnswer(result, api.maxAnswerChars) as never,
      onSubscribe: async (ctx, id, params) => {
        const headers = new Headers();
        const auth =
          ctx.connectionParams?.authorization ?? (ctx.connectionParams?.token ? `Bearer ${String(ctx.connectionParams.token)}` : null);
        if (typeof auth === "string") headers.set("authorization", auth);
        const cookie = ctx.extra.request.headers.cookie;
        if (cookie) headers.set("cookie", cookie);
        // Yoga refuses mutations in GET requests (they must not be links); an operation over
        // this socket is like a POST, so say so, or every mutation here failed as an internal error.
        const request = new Request("http://localhost/graphql", { method: "POST", headers });
        const address = clientIp(ctx.extra.request);
        // Each operation counts as a request, as it would over HTTP; refused, it is answered alone.
        const verdict = api.requestLimits.take("requests", address);
        if (verdict.limited) return [tooManyRequests(verdict.retryAfterSeconds)];
        // A malformed or over-limit operation is answered on its own id; graphql-ws would
        // otherwise close the whole socket (4500) and every other operation on it.
        const prepared = await prepareOperation(api, {
          ...ctx,
          request,
          clientIp: address,
          // The mutation limit's refusal has no HTTP status to set here.
          websocket: true,
          params,
        });
        if ("errors" in prepared) return prepared.errors;
        const { args, execute, subscribe } = prepared;
        if (args.contextValue.session) closeWhenSessionEnds(ctx.extra.socket, args.contextValue.session);
        if (getOperationAST(args.document, params.operationName)?.operation !== "subscription") stateOf(ctx.extra.socket).oneShots.add(id);
        return { ...args, rootValue: { execute, subscribe } } satisfies ExecutionArgs;
      },
      onComplete: (ctx, id) => {
        const state = sockets.get(ctx.extra.socket);
        if (state?.oneShots.delete(id)) closeIfIdle(ctx.extra.socket, state);
      },
    },
    wss,
  );

  return {
    /**
     * Shutting down: refuses new upgrades, and closes every socket with 1012 once the queries and
     * mutations under way on it are answered (its subscriptions end; the client reconnects, to
     * another instance or to this one restarted, and its `after` replays what it missed).
     */
    async close(graceMs = 5_000) {
      shuttingDown = true;
      const closed = [...wss.clients].map((socket) => {
        if (socket.readyState === WebSocket.CLOSED) return Promise.resolve();
        const done = new Promise<void>((resolve) => socket.once("close", () => resolve()));
        const state = stateOf(socket);
        state.closing ??= RESTART;
        closeIfIdle(socket, state);
        return done;
      });
      // A client that never answers the close (or an operation that never ends) is cut off, not waited for.
      const cutOff = setTimeout(() => {
        for (const socket of wss.clients) socket.terminate();
      }, graceMs);
      await Promise.all(closed);
      clearTimeout(cutOff);
      // Sockets that never finished their handshake, if any, go with graphql-ws's own 1001.
      await cleanup.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
