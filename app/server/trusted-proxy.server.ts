import type { IncomingMessage } from "node:http";
import proxyAddr from "proxy-addr";

// Who a request comes from, as Express's "trust proxy" reads it. Its own module because the endpoint, the request log,
// the request id and the metrics all read it: kept in graphql-endpoint it made those modules import each other in a circle.

/** Whether the proxy at `address`, `hop` steps from the server, may speak for the client (Express's "trust proxy"). */
export type TrustFn = (address: string, hop: number) => boolean;

/** The client's address: the one a trusted proxy forwards, else the socket's (as Express's `req.ip`). */
export const clientAddress = (trust: TrustFn) => (req: IncomingMessage) => proxyAddr(req, trust);
