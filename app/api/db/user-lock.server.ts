import { PostgresAdapter, type Transaction } from "kysely";
import type { Database } from "./tables";

/**
 * Holds the user's own changes back until this transaction ends, so that what it read
 * (how many places there are, the next free position) stays true until it writes. SQLite
 * needs nothing: its one connection runs one transaction at a time. PostgreSQL runs them
 * side by side (READ COMMITTED), so there the user's row is locked until commit;
 * `no key update` leaves foreign-key checks (a message or session written for the user
 * meanwhile) free to go on.
 */
export async function lockUser(trx: Transaction<Database>, userId: string): Promise<void> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  await trx.selectFrom("users").select("id").where("id", "=", userId).forNoKeyUpdate().execute();
}
