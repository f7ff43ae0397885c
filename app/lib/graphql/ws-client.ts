import { createClient, type Client, type ClientOptions } from "graphql-ws";

/** Close codes that end the connection for good (no retry), reported to the user. */
export const FATAL_CLOSE_CODES: readonly number[] = [4500, 4005, 4400, 4004, 4401, 4406, 4409, 4429];
/** Close codes that may go away on their own: retried. 1012 ("service restart") is a server shutting down gracefully. */
export const RETRYABLE_CLOSE_CODES: readonly number[] = [1012, 4403, 4408, 4504];

/** Subscription retry policy (docs/product-constants.md). */
export const WS_RETRY = { attempts: 5, baseDelayMs: 1000 } as const;

/** Exponential backoff from `baseDelayMs`, plus up to one base delay of random jitter. */
export function retryDelayMs(retries: number, baseDelayMs: number = WS_RETRY.baseDelayMs, random: () => number = Math.random): number {
  return baseDelayMs * 2 ** retries + Math.floor(random() * baseDelayMs);
}

type CloseLike = { code: number; reason: string };
const isCloseLike = (value: unknown): value is CloseLike =>
  typeof value === "object" && value !== null && typeof (value as CloseLike).code === "number";

export type WsClientOptions = Pick<ClientOptions, "url" | "connectionParams" | "webSocketImpl"> & {
  /** Tests shorten the wait; the app uses 1 s (docs/product-constants.md, subscriptions). */
  baseDelayMs?: number;
  /** Called once when the server closes with a fatal code. */
  onFatalClose?: (event: CloseLike) => void;
};

/**
 * The graphql-ws (graphql-transport-ws) client: 5 retries with exponential backoff and
 * jitter; keep-alive, lazy-close and acknowledgement timeouts off. graphql-ws itself
 * never retries the fatal codes above; they are reported through `onFatalClose`.
 */
export function createWsClient(options: WsClientOptions): Client {
  const baseDelayMs = options.baseDelayMs ?? WS_RETRY.baseDelayMs;
  return createClient({
    url: options.url,
    connectionParams: options.connectionParams,
    webSocketImpl: options.webSocketImpl,
    retryAttempts: WS_RETRY.attempts,
    // graphql-ws by default gives up on anything that is not a close event, and a browser
    // reports a refused connection (server restarting) as an error event first. Every
    // problem but the fatal close codes (which graphql-ws never retries) gets the retries.
    shouldRetry: () => true,
    retryWait: (retries) => new Promise((resolve) => setTimeout(resolve, retryDelayMs(retries, baseDelayMs))),
    keepAlive: 0,
    lazyCloseTimeout: 0,
    connectionAckWaitTimeout: 0,
    on: {
      closed(event) {
        if (isCloseLike(event) && FATAL_CLOSE_CODES.includes(event.code)) options.onFatalClose?.(event);
      },
    },
  });
}
