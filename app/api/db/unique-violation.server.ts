/**
 * Whether a failed statement broke a unique index or primary key, on either database:
 * better-sqlite3 says `SQLITE_CONSTRAINT_UNIQUE` (or `_PRIMARYKEY`), PostgreSQL SQLSTATE
 * 23505. Kysely passes the driver's error on as it is.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null || !("code" in error)) return false;
  const { code } = error as { code: unknown };
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}

/** Whether a failed statement named a row that is not there (a foreign key): SQLITE_CONSTRAINT_FOREIGNKEY, SQLSTATE 23503. */
export function isForeignKeyViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null || !("code" in error)) return false;
  const { code } = error as { code: unknown };
  return code === "23503" || code === "SQLITE_CONSTRAINT_FOREIGNKEY";
}
