import { GraphQLError } from "graphql";
import { createYoga } from "graphql-yoga";
import { GRAPHQL_PATH } from "../shared/graphql-path";
import { apiPlugins, type PluginDeps } from "./api-plugins.server";
import type { ApiContext } from "./context.server";
import { isDatabaseUnavailable } from "./db/unavailable.server";
import { apiLog, type OperationLogRecord } from "./log.server";
import type { OutageAnswer } from "./outage-answer.server";
import { createApiSchema, type SchemaExtension } from "./schema/index.server";

/** yoga's log calls, as one line: the texts as the message, the first error as `err`. */
function yogaLogMessage(args: unknown[]): string {
  return ["[graphql]", ...args.filter((arg) => typeof arg === "string")].join(" ");
}
function yogaLogFields(args: unknown[]): { err?: unknown } {
  const err = args.find((arg) => arg instanceof Error);
  return err === undefined ? {} : { err };
}

/** yoga's logger: warnings and unexpected errors to the API's log, once each. */
function yogaLogging(reported: WeakSet<object>) {
  return {
    debug: () => {},
    info: () => {},
    warn: (...args: unknown[]) => apiLog.warn(yogaLogFields(args), yogaLogMessage(args)),
    // Errors the API raised on purpose (bad input, not logged in, ...) are answers, not incidents.
    error: (...args: unknown[]) => {
      if (args.some((arg) => arg instanceof GraphQLError && arg.extensions?.code !== "INTERNAL_SERVER_ERROR")) return;
      if (args.some((arg) => typeof arg === "object" && arg !== null && reported.has(arg))) return;
      apiLog.error(yogaLogFields(args), yogaLogMessage(args));
    },
  };
}

/** What an error becomes in an answer: the API's own pass, an outage is retryable, anything else is an internal error. */
function errorMask(reported: WeakSet<object>, unavailable: OutageAnswer) {
  return (error: unknown, message: string): Error => {
    // Errors the API raised on purpose (and GraphQL's own) pass; anything else is a bug
    // whose details stay in the server log.
    const original = (error as GraphQLError).originalError ?? error;
    if (original instanceof GraphQLError) return original;
    if (isDatabaseUnavailable(original)) return unavailable(original);
    if (!reported.has(original as object)) apiLog.error({ err: original }, "[graphql] unexpected error:");
    return new GraphQLError(message, { extensions: { code: "INTERNAL_SERVER_ERROR" } });
  };
}

/** The API's GraphQL server: its schema, logging, error masks and plugins. */
export function createApiYoga({
  schemaExtensions,
  unavailable,
  ...deps
}: Omit<PluginDeps, "reported"> & { schemaExtensions?: readonly SchemaExtension[]; unavailable: OutageAnswer }) {
  // Unexpected errors the operation observer logged (with their request id): the mask does not log them again.
  const reported = new WeakSet<object>();
  // Callers say who the client is (the HTTP endpoint, trusting proxies as configured; loaders; the WebSocket
  // server) and which request this is (the id the request's log line carries; a fresh one when none is given).
  return createYoga<{ clientIp?: string; requestId?: string; operationLog?: OperationLogRecord }, ApiContext>({
    schema: createApiSchema(schemaExtensions),
    graphqlEndpoint: GRAPHQL_PATH,
    // The HTTP endpoint reads at most MAX_REQUEST_BYTES before yoga sees a request, and the
    // WebSocket server caps its messages; yoga's own limit would stream every body again.
    maxRequestBodySize: false,
    // Same-origin only: the app's pages and server-side callers need no CORS.
    cors: false,
    logging: yogaLogging(reported),
    landingPage: !deps.production,
    graphiql: !deps.production,
    maskedErrors: { maskError: errorMask(reported, unavailable) },
    plugins: apiPlugins({ ...deps, reported }),
  });
}
