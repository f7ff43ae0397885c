import type { DocumentNode, ExecutionResult, GraphQLResolveInfo } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { ChangeMark, ChangeTracker } from "./db/change-tracker.server";
import { ReadLog } from "./db/read-log.server";

/**
 * What one execution's answer depends on beyond the tables it read (those are logged from
 * the queries it runs: see useResultCache). An answer can be kept only if every resolver
 * that ran is `keepable`, and until the earliest time one gave `validUntil`, after which
 * it would answer differently. Every other resolver (see `keepUnlessDeclared`) makes the
 * answer one-off.
 */
export type ResultHints = { keepable: boolean; until: number };

export const newResultHints = (): ResultHints => ({ keepable: true, until: Number.POSITIVE_INFINITY });

export function validUntil(context: { resultHints: ResultHints }, time: number): void {
  if (time < context.resultHints.until) context.resultHints.until = time;
}

type HintedContext = { resultHints: ResultHints };
type Resolver<C extends HintedContext = HintedContext> = (parent: never, args: never, context: C, info: never) => unknown;
type ResolverMap = Record<string, Record<string, unknown>>;

const KEEPABLE = Symbol("keepable");

/**
 * A resolver whose answers may be kept: beyond its parent and arguments it reads only the
 * database (through Kysely, where what it reads is logged, or through a read cache, which
 * passes that on), and it calls `validUntil` for whatever else changes with time.
 */
// The resolver's own types pass through, so a typed resolver map (resolvers.generated.ts) types its parameters.
// Its context is the API's, which carries `resultHints`.
export function keepable<P, A, C, R>(
  resolve: (parent: P, args: A, context: C, info: GraphQLResolveInfo) => R,
): (parent: P, args: A, context: C, info: GraphQLResolveInfo) => R {
  return Object.assign(resolve, { [KEEPABLE]: true });
}

/** `keepable` for every resolver of a map that reads only its parent and arguments. */
export function keepableFields<M extends object>(fields: M): M {
  return Object.fromEntries(
    Object.entries(fields).map(([name, resolve]) => [
      name,
      keepable(resolve as (parent: never, args: never, context: never, info: GraphQLResolveInfo) => unknown),
    ]),
  ) as M;
}

/**
 * Wraps every field resolver not marked `keepable` so that running it makes the answer
 * one-off. Fields without a resolver read their parent and need nothing.
 */
export function keepUnlessDeclared<T extends ResolverMap>(resolvers: T): T {
  const wrapped: ResolverMap = {};
  for (const [type, fields] of Object.entries(resolvers)) {
    // Scalars (GraphQLScalarType instances) convert values; only plain maps hold field resolvers.
    if (Object.getPrototypeOf(fields) !== Object.prototype) {
      wrapped[type] = fields;
      continue;
    }
    wrapped[type] = { ...fields };
    for (const [field, resolve] of Object.entries(fields)) {
      // Type resolvers (`__resolveType`) decide a type, not a value.
      if (typeof resolve !== "function" || field.startsWith("__") || KEEPABLE in resolve) continue;
      wrapped[type][field] = (parent: never, args: never, context: HintedContext, info: never) => {
        context.resultHints.keepable = false;
        return (resolve as Resolver)(parent, args, context, info);
      };
    }
  }
  return wrapped as T;
}

/** Answers kept at most, in characters of JSON. */
const RESULT_CACHE_MAX_CHARS = 16_000_000;

type Entry = { text: string; mark: ChangeMark; tables: ReadonlySet<string>; until: number };
/** What a request has read so far (its context included), with the mark taken before it read anything. */
class RequestReads extends ReadLog {
  constructor(readonly mark: ChangeMark) {
    super();
  }
}
type CacheContext = { resultHints: ResultHints; session: { userId: string } | null; now: () => Date };

/**
 * A kept answer as a result. Yoga sends `text` as it is (it serializes with a result's own
 * `stringify`); graphql-ws serializes the result itself, reading `data` from the text.
 */
function keptResult(text: string): ExecutionResult {
  return {
    get data() {
      return (JSON.parse(text) as ExecutionResult).data;
    },
    stringify: () => text,
  } as ExecutionResult;
}

/**
 * Keeps signed-in users' query answers, as the JSON they were sent as, until something
 * they were read from changes (a table written, here or in another process: see
 * ChangeTracker) or their resolvers' `validUntil` passes; then the query runs again.
 * Answers are kept per user, document and variables, so nobody is ever given another
 * user's answer, and signed-out requests (limited per address) always run.
 *
 * The tables an answer was read from are those of every query run while its request built
 * its context (the session and its user) and executed, logged by `changes.reads`. The
 * request is tied to its queries by instrumenting both steps, which envelop runs for
 * HTTP and WebSocket alike; the mark is taken before either reads anything.
 */
export function useResultCache(changes: ChangeTracker, maxChars = RESULT_CACHE_MAX_CHARS): Plugin & { readonly size: number } {
  const entries = new Map<string, Entry>();
  let chars = 0;
  const documentIds = new WeakMap<DocumentNode, string>();
  let nextDocumentId = 0;

  /** An id for a document of queries only (the parser cache hands back one object per text), else null. */
  function documentId(document: DocumentNode): string | null {
    let id = documentIds.get(document);
    if (id === undefined) {
      const queries = document.definitions.every(
        (definition) => definition.kind !== "OperationDefinition" || definition.operation === "query",
      );
      id = queries ? String(nextDocumentId++) : "";
      documentIds.set(document, id);
    }
    return id || null;
  }

  function forget(key: string) {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    chars -= entry.text.length;
  }

  // Keyed by the request's initial context object: envelop hands the same one to both steps.
  const requests = new WeakMap<object, RequestReads>();
  const readsOf = (context: object): RequestReads => {
    let reads = requests.get(context);
    if (!reads) {
      reads = new RequestReads(changes.mark());
      requests.set(context, reads);
    }
    return reads;
  };

  return {
    get size() {
      return entries.size;
    },
    instrumentation: {
      context: ({ context }, build) => changes.reads.run(readsOf(context), build),
      execute: ({ context }, execute) => changes.reads.run(readsOf(context), execute),
    },
    onExecute({ args, setResultAndStopExecution }) {
      const context = args.contextValue as unknown as CacheContext;
      const userId = context.session?.userId;
      const document = userId ? documentId(args.document) : null;
      // An execution whose reads are not being logged (run outside the instrumented steps) is never kept.
      const reads = changes.reads.current();
      if (!userId || document === null || !(reads instanceof RequestReads)) {
        context.resultHints.keepable = false;
        return;
      }
      const key = `${document}\0${userId}\0${args.operationName ?? ""}\0${JSON.stringify(args.variableValues ?? {})}`;
      const entry = entries.get(key);
      if (entry) {
        forget(key);
        if (context.now().getTime() < entry.until && changes.unchangedSince(entry.mark, entry.tables)) {
          entries.set(key, entry);
          chars += entry.text.length;
          setResultAndStopExecution(keptResult(entry.text));
          return;
        }
      }
      return {
        onExecuteDone({ result, setResult }) {
          const hints = context.resultHints;
          if (!hints.keepable || !("data" in result) || result.errors || result.extensions || context.now().getTime() >= hints.until)
            return;
          const text = JSON.stringify({ data: result.data });
          if (text.length > maxChars / 4) return;
          entries.set(key, { text, mark: reads.mark, tables: reads.tables, until: hints.until });
          chars += text.length;
          while (chars > maxChars) forget(entries.keys().next().value!);
          setResult({ data: result.data, stringify: () => text } as ExecutionResult);
        },
      };
    },
  };
}
