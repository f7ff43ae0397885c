import { AsyncLocalStorage } from "node:async_hooks";
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, UnknownRow } from "kysely";

/** Stands for every table: a read whose tables cannot be told from its query (raw SQL). */
export const EVERY_TABLE = "*";

/** The tables read while something was computed. */
export class ReadLog {
  readonly tables = new Set<string>();

  add(tables: Iterable<string>): void {
    for (const table of tables) this.tables.add(table);
  }
}

/** Raw SQL that names tables in its text, where no node says which. */
const READS_TABLES = /\b(?:from|join)\b/i;

/** Nodes that hold no other node, or only bound values: nothing in them names a table. */
const LEAVES = new Set(["IdentifierNode", "ColumnNode", "OperatorNode", "ValueNode", "PrimitiveValueListNode", "DefaultInsertValueNode"]);

type AnyNode = { readonly kind: string; readonly [key: string]: unknown };

const isNode = (value: unknown): value is AnyNode =>
  typeof value === "object" && value !== null && typeof (value as { kind?: unknown }).kind === "string";

/**
 * Adds every table a query names anywhere in its tree: FROM, joins, subqueries in columns
 * or conditions, CTEs, unions, a write's target. Aliases and CTE names come along as if
 * they were tables; that only ever costs a needless re-run. Every child node is walked
 * rather than the node kinds known today, so a kind Kysely adds is not missed.
 */
function collectTables(node: AnyNode, tables: Set<string>): void {
  if (node.kind === "TableNode") {
    tables.add((node as unknown as { table: { identifier: { name: string } } }).table.identifier.name);
    return;
  }
  if (LEAVES.has(node.kind)) return;
  if (
    node.kind === "RawNode" &&
    (node as unknown as { sqlFragments: readonly string[] }).sqlFragments.some((text) => READS_TABLES.test(text))
  )
    tables.add(EVERY_TABLE);
  for (const key in node) {
    const child = node[key];
    if (Array.isArray(child)) {
      for (const item of child) if (isNode(item)) collectTables(item, tables);
    } else if (isNode(child)) {
      collectTables(child, tables);
    }
  }
}

/**
 * Logs which tables each computation under way reads, from the queries it actually runs:
 * a Kysely plugin sees every query as it is compiled, in the caller's async context, and
 * AsyncLocalStorage tells which computation (a GraphQL execution, a cached read) that is.
 * Queries run outside any `run` are not logged. A service that hands one read's result to
 * several computations (a cache, a shared batch) must pass on what that read logged:
 * createReadCache does.
 */
export class ReadRecorder {
  readonly #current = new AsyncLocalStorage<ReadLog>();

  /** Runs `fn`, logging in `log` the tables it and everything it starts read. */
  run<T>(log: ReadLog, fn: () => T): T {
    return this.#current.run(log, fn);
  }

  /** The log of the computation under way, if any. */
  current(): ReadLog | undefined {
    return this.#current.getStore();
  }

  /** Adds tables to the log of the computation under way, if any. */
  note(tables: Iterable<string>): void {
    this.#current.getStore()?.add(tables);
  }

  /** For Kysely's `plugins`: logs each query's tables. */
  readonly plugin: KyselyPlugin = {
    transformQuery: ({ node }: PluginTransformQueryArgs) => {
      const log = this.#current.getStore();
      if (log) collectTables(node as unknown as AnyNode, log.tables);
      return node;
    },
    transformResult: async ({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> => result,
  };
}
