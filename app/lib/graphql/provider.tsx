import type { Client } from "@urql/core";
import { createContext, useContext, useState, type ReactNode } from "react";
import { Provider, useSubscription } from "urql";
import { MESSAGE_RECEIVED_SUBSCRIPTION } from "./documents";

/** Where the page's client comes from: the request's on the server, the session's in the browser. */
export const GraphQLClientSourceContext = createContext<((sessionKey: string | null) => { client: Client; settled: boolean }) | null>(null);

export type GraphQLSession = {
  /** Names the signed-in session (not the token); null for a visitor. */
  key: string | null;
  /** Whether the API has a WebSocket endpoint for live messages. */
  live: boolean;
  /** Where the live stream starts: the messages the page's data could not include. */
  liveSince: string;
};

/** Keeps the signed-in user's live message stream open; graphcache puts each message in place. */
function LiveMessages({ since }: { since: string }) {
  // The starting point is fixed when the stream opens; later pages' values would restart it.
  const [after] = useState(since);
  useSubscription({ query: MESSAGE_RECEIVED_SUBSCRIPTION, variables: { after } });
  return null;
}

export function GraphQLProvider({ session, children }: { session: GraphQLSession; children: ReactNode }) {
  const source = useContext(GraphQLClientSourceContext);
  if (!source) throw new Error("GraphQLProvider needs a client source (entry.server / entry.client provide it).");
  const { client, settled } = source(session.key);
  return (
    <Provider value={client}>
      {settled && session.key && session.live ? <LiveMessages key={session.key} since={session.liveSince} /> : null}
      {children}
    </Provider>
  );
}
