import {
  ssrExchange,
  type Client,
  type CombinedError,
  type ExecutionResult,
  type Operation,
  type SSRData,
  type SubscriptionForwarder,
} from "@urql/core";
import type { StorageAdapter } from "@urql/exchange-graphcache";
import type { Client as WsClient } from "graphql-ws";
import { GRAPHQL_PATH } from "../../shared/graphql-path";
import { createGraphQLClient } from "./client";
import { advanceResumeCursor } from "../../shared/live-cursor";

export type BrowserGraphQLOptions = {
  /** The app's own endpoint; tests name a full URL. */
  url?: string;
  /** The server's results for this page (restored once, by the first client). */
  initialState?: SSRData;
  /** Opens the WebSocket client; absent when the API has no WebSocket endpoint (HTTP only). */
  connectWebSocket?: () => Promise<WsClient>;
  onError?: (error: CombinedError, operation: Operation) => void;
  /** The session the page was rendered for (known before hydration), so its persisted cache opens at once. */
  initialKey?: string | null;
  /** The persisted cache of a session; absent: memory only. */
  offlineStorage?: (key: string | null) => SessionStorage | undefined;
  /** Network results and live events reach the cache only once this settles: the page's hydration (hold-results.ts). */
  holdResultsUntil?: Promise<void>;
};

export type SessionStorage = StorageAdapter & { clear(): Promise<unknown> };

/** A session's client: the cache lives and dies with it. `key` is undefined until a page names the session. */
type Session = { key: string | null | undefined; client: Client; closeWebSocket: () => Promise<void>; storage?: SessionStorage };

/**
 * Forwards subscriptions to graphql-ws, opened on first use (the library is not needed for
 * the first paint). A resumable subscription's `after` follows what it delivered, so a
 * reconnect resumes where it stopped.
 */
function webSocketForwarder(getWebSocket: () => Promise<WsClient>): SubscriptionForwarder {
  return (request) => ({
    subscribe(sink) {
      const payload = { ...request, query: request.query ?? "", variables: { ...request.variables } };
      let unsubscribe: (() => void) | null = null;
      let cancelled = false;
      getWebSocket().then(
        (webSocket) => {
          if (cancelled) return;
          unsubscribe = webSocket.subscribe(payload, {
            next(result) {
              advanceResumeCursor(payload, result);
              sink.next(result as ExecutionResult);
            },
            error: (error) => sink.error(error),
            complete: () => sink.complete(),
          });
        },
        (error: unknown) => sink.error(error),
      );
      return {
        unsubscribe() {
          cancelled = true;
          unsubscribe?.();
        },
      };
    },
  });
}

/**
 * The browser's GraphQL client, one per session: logging in or out starts a new one with
 * an empty cache and a new WebSocket, so nothing of one account is left for the next.
 */
export function createBrowserGraphQL(options: BrowserGraphQLOptions) {
  let initialState = options.initialState;

  function open(key: string | null | undefined): Session {
    let webSocket: Promise<WsClient> | null = null;
    const connect = options.connectWebSocket;
    const getWebSocket = () => (webSocket ??= connect!());
    const ssr = ssrExchange({ isClient: true, initialState });
    initialState = undefined;
    // Only a session known up front persists: after a log in/out the next full page load opens its store.
    const storage = key !== undefined ? options.offlineStorage?.(key) : undefined;
    const onError = options.onError;
    const client = createGraphQLClient({
      url: options.url ?? GRAPHQL_PATH,
      ssr,
      forwardSubscription: connect ? webSocketForwarder(getWebSocket) : undefined,
      // An ended session's failures (its cookie is gone) are nobody's concern any more.
      onError: onError && ((error, operation) => session.client === client && onError(error, operation)),
      storage,
      holdResultsUntil: options.holdResultsUntil,
    });
    const closeWebSocket = async () => {
      if (webSocket) await (await webSocket).dispose();
    };
    return { key, client, closeWebSocket, storage };
  }

  let session = open(options.initialKey);
  /**
   * The session reset() ended, while pages rendered before the router has the new one still
   * name it: they keep reading its cache (what is on screen already) rather than asking the
   * new session, which is not allowed to see that account's data, for it.
   */
  let retired: { key: string | null; client: Client } | null = null;

  function replace(key: string | null | undefined) {
    const previous = session;
    session = open(key);
    // What the previous account cached for offline use is not the next one's to see.
    previous.storage?.clear().catch((error: unknown) => console.warn("Could not clear the offline cache:", error));
    // The new session is already in place: an old socket that will not close is only logged.
    previous.closeWebSocket().catch((error: unknown) => console.error("Could not close the previous session's WebSocket:", error));
  }

  return {
    /**
     * The client for the session a page names; a different session than before gets a
     * fresh one. `settled` is false while the page still names the session that was just
     * ended (nothing live should start for it).
     */
    clientFor(key: string | null): { client: Client; settled: boolean } {
      if (session.key === undefined) {
        if (retired && key === retired.key) return { client: retired.client, settled: false };
        session.key = key;
        retired = null;
      } else if (session.key !== key) {
        replace(key);
      }
      return { client: session.client, settled: true };
    },
    /** The client in use now (route client loaders run before the page names its session). */
    current(): Client {
      return session.client;
    },
    /** After logging in or out: a new, empty client; the next page names its session. */
    reset(): void {
      const ended = session;
      replace(undefined);
      if (ended.key !== undefined) retired = { key: ended.key, client: ended.client };
    },
  };
}

export type BrowserGraphQL = ReturnType<typeof createBrowserGraphQL>;

let browserGraphQL: BrowserGraphQL | null = null;

/** entry.client installs the page's one instance before hydrating. */
export function installBrowserGraphQL(instance: BrowserGraphQL): BrowserGraphQL {
  browserGraphQL = instance;
  return instance;
}

export function getBrowserGraphQL(): BrowserGraphQL {
  if (!browserGraphQL) throw new Error("The browser GraphQL client is not installed (entry.client does that).");
  return browserGraphQL;
}
