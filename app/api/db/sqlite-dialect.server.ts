import { SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type SqliteDialectConfig } from "kysely";

/**
 * An exclusive lock handed to waiters in the order they asked. Release passes it straight
 * to the next waiter, so only that one wakes.
 */
export class FifoLock {
  #held = false;
  #waiters: Array<() => void> = [];

  acquire(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  release(): void {
    const next = this.#waiters.shift();
    if (next) next();
    else this.#held = false;
  }

  get waiting(): number {
    return this.#waiters.length;
  }
}

/**
 * Kysely's SQLite driver guards its one connection with a mutex whose unlock wakes every
 * waiter, and all but one go back to sleep: with 50 requests at once, each query cost 50
 * wake-ups (a quarter of the API's throughput in the benchmark). Waiters here queue in
 * front of it, one at a time, so its own mutex is always free when asked.
 */
class QueuedSqliteDriver extends SqliteDriver implements Driver {
  readonly #queue = new FifoLock();

  override async acquireConnection(): Promise<DatabaseConnection> {
    await this.#queue.acquire();
    try {
      return await super.acquireConnection();
    } catch (error) {
      this.#queue.release();
      throw error;
    }
  }

  override async releaseConnection(): Promise<void> {
    await super.releaseConnection();
    this.#queue.release();
  }
}

/** Kysely's SQLite dialect with the queued driver. */
export class QueuedSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new QueuedSqliteDriver(this.#config);
  }
}
