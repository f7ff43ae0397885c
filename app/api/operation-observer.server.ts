import { GraphQLError, type DocumentNode, type ExecutionResult } from "graphql";
import type { Plugin } from "graphql-yoga";
import { isDatabaseUnavailable } from "./db/unavailable.server";
import { serverCauseOf } from "./errors.server";
import { apiLog, type OperationLogRecord } from "./log.server";
import type { ApiMetrics } from "./metrics.server";

type ObservedContext = { requestId?: string; operationLog?: OperationLogRecord };

/**
 * The operation's name and type as the document says: a client need not send `operationName`
 * for a document with one operation, whose own name then counts ("anonymous" for none).
 */
function describeOperation(document: DocumentNode, requested: string | null | undefined): { name: string; type: string } {
  for (const definition of document.definitions) {
    if (definition.kind === "OperationDefinition" && (!requested || definition.name?.value === requested)) {
      return { name: definition.name?.value ?? "anonymous", type: definition.operation };
    }
  }
  return { name: requested ?? "anonymous", type: "query" };
}

/** An error's code as the client will get it: errors without one are bugs, masked as INTERNAL_SERVER_ERROR. */
function codeOf(error: GraphQLError): string {
  const code = error.extensions?.code;
  if (typeof code === "string") return code;
  const original = error.originalError;
  if (original === undefined || original instanceof GraphQLError) return "BAD_USER_INPUT";
  return isDatabaseUnavailable(original) ? "SERVICE_UNAVAILABLE" : "INTERNAL_SERVER_ERROR";
}

/**
 * One log line and one measurement per GraphQL operation, tied to its request by the
 * context's requestId (the page's or /graphql's X-Request-Id; a caller that logs the request
 * itself passes `operationLog`, and the operation is described in its line), and the count of open
 * subscriptions. Unexpected errors are logged here, with the request id, and put in
 * `reported` so the error mask does not log them a second time. First among the plugins:
 * an answer from the result cache is measured too.
 */
export function useOperationObserver(metrics: ApiMetrics, reported: WeakSet<object>): Plugin {
  function done(context: ObservedContext, name: string, type: string, started: number, result: ExecutionResult) {
    const seconds = (performance.now() - started) / 1000;
    const errors = result.errors ?? [];
    const errorCodes = errors.map((error) => codeOf(error as GraphQLError));
    metrics.operation({ name, type, seconds, errorCodes });
    for (const [index, code] of errorCodes.entries()) {
      const original = (errors[index] as GraphQLError).originalError ?? errors[index]!;
      // An answer the API meant (a provider's outage) whose cause is the log's, not the client's.
      const cause = serverCauseOf(original);
      if (cause !== undefined) apiLog.warn({ reqId: context.requestId, op: name, code, cause }, "[graphql] answered with an error:");
      if (code !== "INTERNAL_SERVER_ERROR") continue;
      reported.add(original);
      apiLog.error({ reqId: context.requestId, op: name, err: original }, "[graphql] unexpected error:");
    }
    // The request's own line names the operation where the caller keeps one (one line per /graphql request, not two).
    const record = context.operationLog;
    if (record) {
      record.op = name;
      record.type = type;
      if (errorCodes.length) record.errors = errorCodes;
      return;
    }
    apiLog.info(
      {
        reqId: context.requestId,
        op: name,
        type,
        ms: Math.round(seconds * 10_000) / 10,
        ...(errorCodes.length ? { errors: errorCodes } : {}),
      },
      "graphql operation",
    );
  }

  return {
    onExecute({ args }) {
      const started = performance.now();
      const context = args.contextValue as ObservedContext;
      return {
        onExecuteDone({ result }) {
          // Incremental delivery (@defer/@stream) is not used by this schema: only whole results are measured.
          if (Symbol.asyncIterator in result) return;
          const { name, type } = describeOperation(args.document, args.operationName);
          done(context, name, type, started, result);
        },
      };
    },
    onSubscribe({ args }) {
      const started = performance.now();
      const { name } = describeOperation(args.document, args.operationName);
      const context = args.contextValue as ObservedContext;
      return {
        onSubscribeResult({ result }) {
          if (!(Symbol.asyncIterator in result)) {
            done(context, name, "subscription", started, result);
            return;
          }
          done(context, name, "subscription", started, {});
          metrics.subscriptions(1);
          return {
            onEnd() {
              metrics.subscriptions(-1);
            },
          };
        },
      };
    },
  };
}
