import { sql } from "kysely";
import type { Db } from "../db/database.server";
import { ACCOUNT_KEY_SEPARATOR, ACCOUNT_RULE_NAMES } from "./login-guard.server";

/**
 * Deletes an account with every row it has, in one transaction, and returns the ids of the sessions that went with
 * it (the caller ends their listeners once it has committed). Every table holding a user's rows references `users`
 * (directly, or through a place, rule, briefing, message or session) with ON DELETE CASCADE, on both databases
 * (migrations.server.ts), so the rows go with the user's; tests/integration/account-deletion.test.ts counts every
 * table to hold it so. Only the log-in limits name the account otherwise: by its email, in their keys.
 */
export async function deleteAccountRows(db: Db, userId: string, email: string): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    const sessions = await trx.selectFrom("sessions").select("id").where("user_id", "=", userId).execute();
    await trx.deleteFrom("users").where("id", "=", userId).execute();
    const pairPrefix = `${email}${ACCOUNT_KEY_SEPARATOR}`;
    // substr counts characters (code points) on both databases, not UTF-16 units.
    const prefixLength = [...pairPrefix].length;
    for (const table of ["rate_events", "rate_limit_keys"] as const) {
      await trx
        .deleteFrom(table)
        .where("rule", "in", [...ACCOUNT_RULE_NAMES])
        .where((eb) => eb.or([eb("key", "=", email), eb(sql<string>`substr(key, 1, ${sql.lit(prefixLength)})`, "=", pairPrefix)]))
        .execute();
    }
    return sessions.map((session) => session.id);
  });
}
