import type {
  Kysely,
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from "kysely";

/** Stands for every table: a read whose tables cannot be told from its query (raw SQL). */
export const EVERY_TABLE = "*";

/**
 * A moment to compare later state with (see ChangeTracker): the clock of this process's
 * writes, and the version of the data other processes commit to. Both only grow.
 */
export type ChangeMark = { readonly clock: number; readonly dataVersion: number };

/** Whether mark `a` was taken before `b` (or at the same moment). */
export const isBefore = (a: ChangeMark, b: ChangeMark) => a.clock < b.clock || (a.clock === b.clock && a.dataVersion <= b.dataVersion);

/**
 * What a computation (a GraphQL request, a cached read) read: the tables of every query it
 * ran, and a mark taken before the first of them (`since`), so that a write after it counts
 * as a change to what it read. Every mark it is given is taken while the computation runs
 * (a value cached from before is marked as good at the moment it was checked: see
 * ChangeTracker.stillSince), so its mark is never older than the computation.
 */
export class ReadLog {
  readonly tables = new Set<string>();
  #mark: ChangeMark | undefined;

  /** The earliest mark of what was read, if anything was. */
  get mark(): ChangeMark | undefined {
    return this.#mark;
  }

  /** Something read was unchanged since `mark`: the log's mark is the earliest such. */
  since(mark: ChangeMark): void {
    if (!this.#mark || !isBefore(this.#mark, mark)) this.#mark = mark;
  }

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

const passResult = async ({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> => result;

/**
 * Ties queries to the computation they belong to without tracking async context: each
 * computation runs its queries through its own Kysely (`logTo`, the shared one with a
 * plugin that logs into the computation's ReadLog), handed to it explicitly: a request's
 * context and loaders, a read cache's read. Queries run through the shared Kysely (the
 * one `plugin` is on) belong to no computation; they are counted (`unlogged`), and a
 * computation during which the count moved cannot tell what it read and is not cached.
 * Background work whose reads no cached answer depends on (a loop that hands rows to
 * subscribers, a store whose values say how long they hold) says so with `exempt`.
 *
 * Kysely runs a query's plugins in order, synchronously, the shared one first: the
 * plugin of a derived Kysely takes back the count its query just added.
 */
export class ReadRecorder {
  readonly #mark: () => ChangeMark;
  #unlogged = 0;
  #counted: RootOperationNode | null = null;

  /** `mark` is taken before a log's first query, if it has no mark yet. */
  constructor(mark: () => ChangeMark) {
    this.#mark = mark;
  }

  /** How many queries ran outside any log so far. */
  get unlogged(): number {
    return this.#unlogged;
  }

  /** For the shared Kysely's `plugins`: counts each query, unless a derived Kysely takes it (see `logTo`, `exempt`). */
  readonly plugin: KyselyPlugin = {
    transformQuery: ({ node }: PluginTransformQueryArgs) => {
      this.#unlogged++;
      this.#counted = node;
      return node;
    },
    transformResult: passResult,
  };

  #take(node: RootOperationNode): void {
    if (this.#counted !== node) return;
    this.#counted = null;
    this.#unlogged--;
  }

  /** `db` (the shared Kysely, or one made from it), logging in `log` what every query it runs reads. */
  logTo<D>(db: Kysely<D>, log: ReadLog): Kysely<D> {
    return db.withPlugin({
      transformQuery: ({ node }: PluginTransformQueryArgs) => {
        this.#take(node);
        if (!log.mark) log.since(this.#mark());
        collectTables(node as unknown as AnyNode, log.tables);
        return node;
      },
      transformResult: passResult,
    });
  }

  /** `db` for reads that no cached answer depends on: they are neither logged nor counted. */
  exempt<D>(db: Kysely<D>): Kysely<D> {
    return db.withPlugin({
      transformQuery: ({ node }: PluginTransformQueryArgs) => {
        this.#take(node);
        return node;
      },
      transformResult: passResult,
    });
  }
}
