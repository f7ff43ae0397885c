import { EVERY_TABLE, ReadRecorder, type ChangeMark } from "./read-log.server";

export type { ChangeMark };

/** Tables a write to the key reaches through `ON DELETE`/`ON UPDATE` actions (direct ones). */
export type CascadeMap = ReadonlyMap<string, readonly string[]>;

const WRITE = /^\s*(insert(?:\s+or\s+(\w+))?\s+into|replace\s+into|update(?:\s+or\s+\w+)?|delete\s+from)\s+"?(\w+)"?/i;
/** Statements that change no rows: reads, and the brackets of transactions. */
const NO_CHANGE =
  /^\s*(?:select|pragma|explain|begin|commit|end|rollback|savepoint|release)\b|^\s*with\b(?![\s\S]*\b(?:insert|update|delete|replace)\b)/i;

/**
 * Tells a reader whether the tables it read may have changed since a moment it marked,
 * so that what it read can be cached in memory and reused until then.
 *
 * - Writes on this process's connection are seen statement by statement: every SQL text
 *   the connection prepares passes `recordStatement`. A write counts for its table and for
 *   every table a foreign key cascades it to; a write whose table cannot be read from its
 *   text counts for every table.
 * - Commits by any other connection are seen, on SQLite, through `dataVersion` (its
 *   `PRAGMA data_version`, which changes only then): after one, nothing marked before it
 *   is trusted; it must never decrease. On PostgreSQL every instance announces the tables
 *   its commits wrote (write-announcements.server.ts): they arrive as `recordWrite`, and
 *   `sync` waits until every commit made before it was called has been heard, so a
 *   request that syncs first is never answered from what another instance changed.
 *
 * It errs one way only: a rolled-back write still counts as a change.
 *
 * Which tables a reader read is found from the queries it ran (`reads`, see ReadRecorder),
 * so that no list kept by hand can leave one out.
 */
export class ChangeTracker {
  /** Logs the tables each computation reads (its plugin is on the database's Kysely; see ReadRecorder). */
  readonly reads = new ReadRecorder(() => this.mark());
  #clock = 0;
  /** Clock of the last write that reached each table; `#everything` for writes of unknown reach. */
  readonly #lastWrite = new Map<string, number>();
  #everything = 0;
  #cascades: CascadeMap = new Map();
  readonly #dataVersion: () => number;
  #sync: (() => Promise<boolean>) | null = null;

  constructor(dataVersion: () => number) {
    this.#dataVersion = dataVersion;
  }

  /** Where `sync` asks whether every commit before now has been heard (PostgreSQL's announcements). */
  setSync(sync: () => Promise<boolean>): void {
    this.#sync = sync;
  }

  /**
   * Resolves once every commit made anywhere before the call has reached `recordWrite`
   * (undefined when there is nothing to wait for: SQLite sees them through `dataVersion`).
   * When that cannot be known (the announcements' connection is down), nothing marked
   * before is trusted.
   */
  sync(): Promise<void> | undefined {
    return this.#sync?.().then((heard) => {
      if (!heard) this.recordUnknownWrite();
    });
  }

  /** A commit (of any instance) wrote `table`; the tables its foreign keys reached are announced too. */
  recordWrite(table: string): void {
    this.#lastWrite.set(table, ++this.#clock);
  }

  /** Writes may have been missed: nothing marked before now is trusted. */
  recordUnknownWrite(): void {
    this.#everything = ++this.#clock;
  }

  /** Which tables follow a write to which (read from the schema once it is migrated). */
  setCascades(cascades: CascadeMap): void {
    this.#cascades = cascades;
  }

  /** Called with every statement the connection is about to run. */
  recordStatement(sql: string): void {
    if (NO_CHANGE.test(sql)) return;
    this.#clock++;
    const write = WRITE.exec(sql);
    if (!write) {
      this.#everything = this.#clock;
      return;
    }
    const [, verb, conflict, table] = write;
    this.#lastWrite.set(table!, this.#clock);
    // Only a row that goes or changes sets its dependents' foreign keys acting; a plain insert adds one.
    const inserts = /^insert/i.test(verb!) && !/^replace$/i.test(conflict ?? "");
    if (inserts) return;
    const reached = [table!];
    for (let i = 0; i < reached.length; i++) {
      this.#lastWrite.set(reached[i]!, this.#clock);
      for (const next of this.#cascades.get(reached[i]!) ?? []) if (!reached.includes(next)) reached.push(next);
    }
  }

  /** Take before reading: a write that lands during the read then counts as after it. */
  mark(): ChangeMark {
    return { clock: this.#clock, dataVersion: this.#dataVersion() };
  }

  /**
   * Whether none of `tables` (EVERY_TABLE: any) can have changed since `mark`, here or in
   * another process. `asOf`, a mark taken while the computation asking was under way,
   * stands for now as far as other processes go (their commits since it are not asked
   * about again: the computation answers as of then); this process's writes are always
   * checked up to now.
   */
  unchangedSince(mark: ChangeMark, tables: Iterable<string>, asOf?: ChangeMark): boolean {
    return this.stillSince(mark, tables, asOf) !== null;
  }

  /**
   * If none of `tables` changed since `mark`, a mark of now (what was read then is as good
   * as read now; a reader passing it on marks its own reads with it), else null. It asks
   * `dataVersion` once, or not at all given `asOf` (see unchangedSince).
   */
  stillSince(mark: ChangeMark, tables: Iterable<string>, asOf?: ChangeMark): ChangeMark | null {
    if (this.#everything > mark.clock) return null;
    for (const table of tables) {
      if (table === EVERY_TABLE ? this.#clock > mark.clock : (this.#lastWrite.get(table) ?? 0) > mark.clock) return null;
    }
    const dataVersion = asOf ? asOf.dataVersion : this.#dataVersion();
    return dataVersion === mark.dataVersion ? { clock: this.#clock, dataVersion } : null;
  }
}
