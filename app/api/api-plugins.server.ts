import { EnvelopArmorPlugin } from "@escape.tech/graphql-armor";
import { getOperationAST, GraphQLError, NoSchemaIntrospectionCustomRule } from "graphql";
import type { Plugin } from "graphql-yoga";
import { useAnswerSizeLimit } from "./answer-size.server";
import { costLimitRule } from "./cost-limit.server";
import type { ChangeTracker } from "./db/change-tracker.server";
import { useJitForRepeatedOperations } from "./jit.server";
import type { ApiMetrics } from "./metrics.server";
import { useOperationObserver } from "./operation-observer.server";
import { tooManyRequests, type RequestLimits } from "./request-limits.server";
import { useRequestRefusals } from "./request-refusals.server";
import { useResultCache } from "./result-cache.server";
import type { UserCaches } from "./user-caches.server";
import type { YogaContext } from "./request-context.server";

const LIMITS = { maxDepth: 10, maxAliases: 15, maxTokens: 2000 };

/** The cost limit counts list sizes (armor's own cost limit does not, and is off). */
const useCostLimit = (): Plugin => ({
  onValidate({ addValidationRule }) {
    addValidationRule(costLimitRule());
  },
});

/** Production does not describe its schema to strangers. */
const useNoIntrospection = (): Plugin => ({
  onValidate({ addValidationRule }) {
    addValidationRule(NoSchemaIntrospectionCustomRule);
  },
});

/** Every error leaves with an `extensions.code`: ones the resolvers did not set are malformed requests. */
const useErrorCodes = (): Plugin => ({
  onResultProcess({ result, setResult }) {
    if (Array.isArray(result) || !result || typeof result !== "object" || !("errors" in result) || !result.errors) return;
    const errors = result.errors.map((error) =>
      (error as GraphQLError).extensions?.code
        ? error
        : new GraphQLError(error.message, {
            ...(error as GraphQLError),
            extensions: { ...(error as GraphQLError).extensions, code: "BAD_USER_INPUT" },
          }),
    );
    setResult({ ...result, errors });
  },
});

/**
 * Mutations per client address (REQUEST_LIMIT's stricter sibling), over HTTP and WebSocket alike.
 * Over HTTP the refusal is a 429 with Retry-After; a WebSocket operation gets the error alone.
 */
const useMutationLimit = (limits: RequestLimits): Plugin<{ clientIp?: string; websocket?: boolean }> => ({
  onExecute({ args, setResultAndStopExecution }) {
    if (getOperationAST(args.document, args.operationName)?.operation !== "mutation") return;
    const verdict = limits.take("mutations", args.contextValue.clientIp ?? "unknown");
    if (!verdict.limited) return;
    const seconds = verdict.retryAfterSeconds;
    const http = args.contextValue.websocket ? {} : { http: { status: 429, headers: { "Retry-After": String(seconds) } } };
    setResultAndStopExecution({ errors: [tooManyRequests(seconds, http)] });
  },
});

/** What the API's plugins work with. */
export type PluginDeps = {
  production: boolean;
  fillContext: (context: YogaContext) => Promise<void>;
  metrics: ApiMetrics;
  /** Unexpected errors the operation observer logged (with their request id), which no one logs again. */
  reported: WeakSet<object>;
  changes: ChangeTracker;
  requestLimits: RequestLimits;
  maxAnswerChars: number;
  /** The result cache joins them: a deleted account's answers are dropped from memory. */
  userCaches: UserCaches;
};

/** The API's envelop plugins, in the order their hooks must run. */
export function apiPlugins(deps: PluginDeps): Plugin[] {
  const { production, fillContext, metrics, reported, changes, requestLimits, maxAnswerChars } = deps;
  const resultCache = useResultCache(changes, undefined, metrics);
  deps.userCaches.add(resultCache);
  return [
    // Builds the context, before any other plugin's hooks read it.
    { onContextBuilding: ({ context }) => fillContext(context as unknown as YogaContext) } satisfies Plugin,
    // Before the result cache: a cached answer is logged and measured too.
    useOperationObserver(metrics, reported),
    // First: an answer cached from before skips the rest of execution, compiling included.
    resultCache,
    useMutationLimit(requestLimits),
    useJitForRepeatedOperations(),
    EnvelopArmorPlugin({
      maxDepth: { n: LIMITS.maxDepth },
      maxAliases: { n: LIMITS.maxAliases },
      costLimit: { enabled: false },
      maxTokens: { n: LIMITS.maxTokens },
      blockFieldSuggestion: { enabled: production },
    }),
    useCostLimit(),
    ...(production ? [useNoIntrospection()] : []),
    useErrorCodes(),
    useRequestRefusals(),
    // Last: it measures the answer exactly as it will be sent.
    useAnswerSizeLimit(maxAnswerChars),
  ];
}
