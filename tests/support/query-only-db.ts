import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from "kysely";
import type { ChangeTracker } from "~/api/db/change-tracker.server";

/**
 * A Kysely on no database (every query answers no rows) with `changes`' read recorder
 * on it, as the database module sets it up: unit tests run real queries through it so
 * that the read log hears them, without tables to create.
 */
export function queryOnlyDb<D>(changes: ChangeTracker): Kysely<D> {
  return new Kysely<D>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
    plugins: [changes.reads.plugin],
  });
}
