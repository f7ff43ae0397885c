import type { DocumentNode, ExecutionResult, GraphQLResolveInfo } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { ChangeMark, ChangeTracker } from "./db/change-tracker.server";

/**
 * What one execution's answer depends on, filled in by the resolvers that run. An answer
 * can be kept only if every resolver that ran is `keepable`: each names the tables it
 * reads, and calls `validUntil` with a time after which it would answer differently.
 * Every other resolver (see `keepUnlessDeclared`) makes the answer one-off.
 */
export type ResultHints = { keepable: boolean; tables: string[]; until: number };

export const newResultHints = (): ResultHints => ({ keepable: true, tables: [], until: Number.POSITIVE_INFINITY });

export function validUntil(context: { resultHints: ResultHints }, time: number): void {
  if (time < context.resultHints.until) context.resultHints.until = time;
}

type HintedContext = { resultHints: ResultHints };
type Resolver<C extends HintedContext = HintedContext> = (parent: never, args: never, context: C, info: never) => unknown;
type ResolverMap = Record<string, Record<string, unknown>>;

const KEEPABLE = Symbol("keepable");

/**
 * A resolver whose answers may be kept: beyond its parent and arguments it reads only
 * `tables`, and it calls `validUntil` for whatever else changes with time.
 */
// The resolver's own types pass through, so a typed resolver map (resolvers.generated.ts) types its parameters.
// Its context is the API's, which carries `resultHints`.
export function keepable<P, A, C, R>(
  tables: readonly string[],
  resolve: (parent: P, args: A, context: C, info: GraphQLResolveInfo) => R,
): (parent: P, args: A, context: C, info: GraphQLResolveInfo) => R {
  const declared = (parent: never, args: never, context: HintedContext, info: never) => {
    for (const table of tables) if (!context.resultHints.tables.includes(table)) context.resultHints.tables.push(table);
    return (resolve as unknown as Resolver)(parent, args, context, info);
  };
  return Object.assign(tables.length ? declared : resolve, { [KEEPABLE]: true }) as unknown as typeof resolve;
}

/** `keepable` for every resolver of a map that reads only its parent and arguments. */
export function keepableFields<M extends object>(fields: M): M {
  return Object.fromEntries(
    Object.entries(fields).map(([name, resolve]) => [
      name,
      keepable([], resolve as (parent: never, args: never, context: never, info: GraphQLResolveInfo) => unknown),
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

type Entry = { text: string; mark: ChangeMark; tables: string[]; until: number };
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

  return {
    get size() {
      return entries.size;
    },
    onExecute({ args, setResultAndStopExecution }) {
      const context = args.contextValue as unknown as CacheContext;
      const userId = context.session?.userId;
      const document = userId ? documentId(args.document) : null;
      if (!userId || document === null) {
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
      const mark = changes.mark();
      return {
        onExecuteDone({ result, setResult }) {
          const hints = context.resultHints;
          if (!hints.keepable || !("data" in result) || result.errors || result.extensions || context.now().getTime() >= hints.until)
            return;
          const text = JSON.stringify({ data: result.data });
          if (text.length > maxChars / 4) return;
          entries.set(key, { text, mark, tables: hints.tables, until: hints.until });
          chars += text.length;
          while (chars > maxChars) forget(entries.keys().next().value!);
          setResult({ data: result.data, stringify: () => text } as ExecutionResult);
        },
      };
    },
  };
}
