import { AsyncLocalStorage } from "node:async_hooks";
import type { KyselyPlugin, OperationNode, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, UnknownRow } from "kysely";

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

/**
 * Every table a query names anywhere in its tree: FROM, joins, subqueries in columns or
 * conditions, CTEs, unions, a write's target. Aliases and CTE names come along as if they
 * were tables; that only ever costs a needless re-run. The whole tree is walked rather
 * than the node kinds known today, so a kind Kysely adds is not missed.
 */
export function tablesOf(root: OperationNode): Set<string> {
  const tables = new Set<string>();
  const pending: object[] = [root];
  const visit = (child: unknown) => {
    // Only nodes and lists of them can name a table.
    if (Array.isArray(child)) {
      for (const item of child) visit(item);
    } else if (typeof child === "object" && child !== null && typeof (child as { kind?: unknown }).kind === "string") {
      pending.push(child);
    }
  };
  while (pending.length > 0) {
    const node = pending.pop() as { kind: string; table?: { identifier: { name: string } }; sqlFragments?: readonly string[] };
    if (node.kind === "TableNode") tables.add(node.table!.identifier.name);
    else if (node.kind === "RawNode" && node.sqlFragments!.some((fragment) => READS_TABLES.test(fragment))) tables.add(EVERY_TABLE);
    // A bound value is data, whatever its shape.
    if (node.kind === "ValueNode" || node.kind === "PrimitiveValueListNode") continue;
    for (const child of Object.values(node)) visit(child);
  }
  return tables;
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
      this.#current.getStore()?.add(tablesOf(node));
      return node;
    },
    transformResult: async ({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> => result,
  };
}
