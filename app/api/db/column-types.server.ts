import { PostgresAdapter, type Kysely } from "kysely";

/**
 * The column types that differ between the two databases, chosen in one place so that a
 * migration is written once. Everything else is the same on both: booleans are `integer`
 * 0/1 and times ISO-8601 `text`, so rows and the code that reads them do not change.
 */
export type ColumnTypes = {
  /** A float: SQLite's `real` is 8 bytes; PostgreSQL's is 4 (latitudes would lose digits), its 8-byte one is `double precision`. */
  real: "real" | "double precision";
};

const SQLITE: ColumnTypes = { real: "real" };
const POSTGRES: ColumnTypes = { real: "double precision" };

/** The types for the database `db` runs on (a migration gets only its Kysely). */
export function columnTypes(db: Kysely<unknown>): ColumnTypes {
  return db.getExecutor().adapter instanceof PostgresAdapter ? POSTGRES : SQLITE;
}
