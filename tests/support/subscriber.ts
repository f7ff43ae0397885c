import { print } from "graphql";
import { createClient, type ClientOptions } from "graphql-ws";
import WebSocket from "ws";
import { timeOrderedLowerBound } from "~/shared/live-cursor";
import { TestMessageIdsDocument, type TestMessageIdsSubscription } from "./documents.generated";

/** The user's messages as they arrive, as graphql-ws takes a query: the typed document printed. */
export const MESSAGE_IDS = print(TestMessageIdsDocument);

/**
 * A graphql-ws client of the API at `httpUrl` (its WebSocket on the same address), signed in with `token`, that never
 * reconnects; `headers` go with its upgrade request (a proxy's X-Forwarded-For), as Node's `ws` can send them.
 */
export function wsClient(
  httpUrl: string,
  token: string | null,
  { headers, ...options }: Partial<ClientOptions> & { headers?: Record<string, string> } = {},
) {
  return createClient({
    url: httpUrl.replace("http", "ws"),
    webSocketImpl: class extends WebSocket {
      constructor(address: string, protocols?: string | string[]) {
        super(address, protocols, { headers });
      }
    },
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    retryAttempts: 0,
    ...options,
  });
}

/** A wsClient subscribed to the user's messages after `after`: the ids it received, whether the stream ended, how the socket closed. */
export function messageSubscriber(httpUrl: string, token: string, after = timeOrderedLowerBound(Date.now())) {
  const seen = { ids: [] as string[], ended: false, closeCode: null as number | null };
  const client = wsClient(httpUrl, token, { on: { closed: (event) => (seen.closeCode = (event as { code: number }).code) } });
  client.subscribe<TestMessageIdsSubscription>(
    { query: MESSAGE_IDS, variables: { after } },
    {
      next: (result) => void (result.data && seen.ids.push(result.data.messageReceived.id)),
      error: () => (seen.ended = true),
      complete: () => (seen.ended = true),
    },
  );
  return { seen, dispose: () => client.dispose() };
}
