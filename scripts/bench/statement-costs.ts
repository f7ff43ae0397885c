/**
 * Where the database's time goes (issue 34): PostgreSQL's per-statement statistics (pg_stat_statements, loaded when
 * the bench's server was started with `statements`), reset before a measured stretch and read after it.
 */
import { sql } from "kysely";
import type { Db } from "../../app/api/db/database.server";

export async function resetStatementCosts(db: Db): Promise<void> {
  await sql`create extension if not exists pg_stat_statements`.execute(db);
  await sql`select pg_stat_statements_reset()`.execute(db);
}

/** The `top` statements by total execution time, as ms per simulated minute, with calls and rows. */
export async function statementCosts(db: Db, minutes: number, top = 12): Promise<string> {
  const { rows } = await sql<{ ms: number; calls: string; rows: string; hit: string; read: string; query: string }>`
    select total_exec_time as ms, calls, rows, shared_blks_hit as hit, shared_blks_read + shared_blks_dirtied as read, query
    from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
    order by total_exec_time desc limit ${top}`.execute(db);
  return rows
    .map(
      (row) =>
        `${(row.ms / minutes).toFixed(0).padStart(7)} ms/min ${String(row.calls).padStart(7)} calls ${String(row.rows).padStart(8)} rows ` +
        `${String(row.hit).padStart(9)} hit ${String(row.read).padStart(7)} read/dirtied  ${row.query.replace(/\s+/g, " ").slice(0, 260)}`,
    )
    .join("\n");
}
