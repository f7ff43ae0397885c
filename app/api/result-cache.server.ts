import type { DocumentNode, ExecutionResult, GraphQLResolveInfo } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { ChangeMark, ChangeTracker } from "./db/change-tracker.server";
import { ReadLog } from "./db/read-log.server";
import { noMetrics, type ApiMetrics } from "./metrics.server";
import type { UserCache } from "./user-caches.server";

/**
 * What one execution's answer depends on beyond the tables it read (those are logged from
 * the queries it runs: see RequestReads). An answer can be cached only if every resolver
 * that ran is `cacheable`, and until the earliest time one gave `validUntil`, after which
 * it would answer differently. Every other resolver (see `uncacheableUnlessDeclared`) makes the
 * answer one-off.
 */
export type ResultHints = { cacheable: boolean; until: number };

export const newResultHints = (): ResultHints => ({ cacheable: true, until: Number.POSITIVE_INFINITY });

export function validUntil(context: { resultHints: ResultHints }, time: number): void {
  if (time < context.resultHints.until) context.resultHints.until = time;
}

type HintedContext = { resultHints: ResultHints };
type Resolver<C extends HintedContext = HintedContext> = (parent: never, args: never, context: C, info: never) => unknown;
type ResolverMap = Record<string, Record<string, unknown>>;

const CACHEABLE = Symbol("cacheable");

/**
 * A resolver whose answers may be cached: beyond its parent and arguments it reads only the
 * database (through its context's `db` or `loaders`, where what it reads is logged, or
 * through a read cache given its context's `reads`, which passes that on), and it calls
 * `validUntil` for whatever else changes with time.
 */
// The resolver's own types pass through, so a typed resolver map (resolvers.generated.ts) types its parameters.
// Its context is the API's, which carries `resultHints`.
export function cacheable<P, A, C, R>(
  resolve: (parent: P, args: A, context: C, info: GraphQLResolveInfo) => R,
): (parent: P, args: A, context: C, info: GraphQLResolveInfo) => R {
  return Object.assign(resolve, { [CACHEABLE]: true });
}

/** `cacheable` for every resolver of a map that reads only its parent and arguments. */
export function cacheableFields<M extends object>(fields: M): M {
  return Object.fromEntries(
    Object.entries(fields).map(([name, resolve]) => [
      name,
      cacheable(resolve as (parent: never, args: never, context: never, info: GraphQLResolveInfo) => unknown),
    ]),
  ) as M;
}

/**
 * Wraps every field resolver not marked `cacheable` so that running it makes the answer
 * one-off. Fields without a resolver read their parent and need nothing.
 */
export function uncacheableUnlessDeclared<T extends ResolverMap>(resolvers: T): T {
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
      if (typeof resolve !== "function" || field.startsWith("__") || CACHEABLE in resolve) continue;
      wrapped[type][field] = (parent: never, args: never, context: HintedContext, info: never) => {
        context.resultHints.cacheable = false;
        return (resolve as Resolver)(parent, args, context, info);
      };
    }
  }
  return wrapped as T;
}

/**
 * Answers cached at most, in characters of JSON. An answer whose data has been read as objects (see cachedResult) counts
 * twice: its objects take about as many bytes as its text.
 */
const RESULT_CACHE_MAX_CHARS = 16_000_000;

type Entry = {
  userId: string;
  text: string;
  mark: ChangeMark;
  tables: ReadonlySet<string>;
  until: number;
  /** The text's data, frozen, once something has read it. */
  data?: unknown;
};

const weight = (entry: Entry) => (entry.data === undefined ? entry.text.length : 2 * entry.text.length);

/** Freezes a value read from JSON and everything in it. */
function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/**
 * What one request has read so far, its context included: every query it runs goes
 * through a Kysely logging here (`changes.reads.logTo`), made with its context. It also
 * holds how many queries had run outside any log when it began: if that count moves
 * before its answer is done, something it called may have read the database unlogged,
 * and the answer is not cached.
 */
export class RequestReads extends ReadLog {
  readonly unloggedAtStart: number;
  constructor(readonly changes: ChangeTracker) {
    super();
    this.unloggedAtStart = changes.reads.unlogged;
  }

  /** Whether every query run since the request began was logged (here or in another computation's log). */
  get complete(): boolean {
    return this.changes.reads.unlogged === this.unloggedAtStart;
  }
}

type CacheContext = { resultHints: ResultHints; session: { userId: string } | null; now: () => Date; reads?: RequestReads };

/**
 * A cached answer as a result. Yoga sends `text` as it is (it serializes with a result's own
 * `stringify`). A reader of `data` (a page's render, graphql-ws) gets objects read from the text
 * once and then shared by every later reader of this answer (it is the same user's), frozen so
 * that none of them can change what the others see. Reading the text again for each page cost 5 %
 * of a signed-in page's CPU.
 */
function cachedResult(entry: Entry, reweigh: (before: number) => void): ExecutionResult {
  return {
    get data() {
      if (entry.data === undefined) {
        const before = weight(entry);
        entry.data = deepFreeze((JSON.parse(entry.text) as ExecutionResult).data);
        reweigh(before);
      }
      return entry.data;
    },
    stringify: () => entry.text,
  } as ExecutionResult;
}

/**
 * Caches signed-in users' query answers, as the JSON they were sent as, until something
 * they were read from changes (a table written, here or in another process: see
 * ChangeTracker) or their resolvers' `validUntil` passes; then the query runs again.
 * Answers are cached per user, document and variables, so nobody is ever given another
 * user's answer, and signed-out requests (limited per address) always run.
 *
 * The tables an answer was read from are those of every query its request ran while it
 * built its context (the session and its user) and executed: the context's `reads`
 * (RequestReads), which its `db`, its loaders and the read caches it asks log into. Its
 * mark is the earliest of what it read, and at the latest the moment execution starts.
 */
export function useResultCache(
  changes: ChangeTracker,
  maxChars = RESULT_CACHE_MAX_CHARS,
  metrics: ApiMetrics = noMetrics,
): Plugin & UserCache & { readonly size: number } {
  const entries = new Map<string, Entry>();
  /** Each user's keys, so that a deleted account's answers can be dropped without a look at every answer. */
  const keysOf = new Map<string, Set<string>>();
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
    chars -= weight(entry);
    const keys = keysOf.get(entry.userId);
    keys?.delete(key);
    if (keys?.size === 0) keysOf.delete(entry.userId);
  }

  function keep(key: string, entry: Entry) {
    entries.set(key, entry);
    chars += weight(entry);
    let keys = keysOf.get(entry.userId);
    if (!keys) keysOf.set(entry.userId, (keys = new Set()));
    keys.add(key);
    evict();
  }

  function evict() {
    while (chars > maxChars) forget(entries.keys().next().value!);
  }

  return {
    get size() {
      return entries.size;
    },
    users: () => keysOf.keys(),
    forgetUser(userId) {
      for (const key of [...(keysOf.get(userId) ?? [])]) forget(key);
    },
    onExecute({ args, setResultAndStopExecution }) {
      const context = args.contextValue as unknown as CacheContext;
      const userId = context.session?.userId;
      const document = userId ? documentId(args.document) : null;
      // An execution whose reads are not being logged (a context made without them) is never cached.
      const reads = context.reads;
      if (!userId || document === null || !(reads instanceof RequestReads)) {
        context.resultHints.cacheable = false;
        return;
      }
      const key = `${document}\0${userId}\0${args.operationName ?? ""}\0${JSON.stringify(args.variableValues ?? {})}`;
      const entry = entries.get(key);
      if (entry) {
        forget(key);
        // The request's own mark (its session's check) already asked for other processes' commits.
        if (context.now().getTime() < entry.until && changes.unchangedSince(entry.mark, entry.tables, reads.mark)) {
          keep(key, entry);
          metrics.cacheLookup("result", true);
          setResultAndStopExecution(
            cachedResult(entry, (before) => {
              // Its objects now count too, if it is still cached.
              if (entries.get(key) !== entry) return;
              chars += weight(entry) - before;
              evict();
            }),
          );
          return;
        }
      }
      metrics.cacheLookup("result", false);
      // What execution reads from now on was read after this (its context's reads may have an earlier mark).
      reads.since(changes.mark());
      return {
        onExecuteDone({ result, setResult }) {
          const hints = context.resultHints;
          if (
            !hints.cacheable ||
            !reads.complete ||
            !("data" in result) ||
            result.errors ||
            result.extensions ||
            context.now().getTime() >= hints.until
          )
            return;
          const text = JSON.stringify({ data: result.data });
          if (text.length > maxChars / 4) return;
          keep(key, { userId, text, mark: reads.mark!, tables: reads.tables, until: hints.until });
          setResult({ data: result.data, stringify: () => text } as ExecutionResult);
        },
      };
    },
  };
}
