/**
 * EXPLAIN of the statements an engine tick runs on every pass (decision 026), on the benchmark's PostgreSQL database:
 * each is written with the same builder calls as the engine's, and a plan with a sequential scan is named.
 */
import { sql, type Compilable, type Kysely } from "kysely";
import { readingAt } from "../../app/api/bot/rule-wakes.server";
import type { Database } from "../../app/api/db/tables";

export async function explainHotPath(db: Kysely<Database>, now: string) {
  await sql`analyze`.execute(db);
  // The cutoffs the engine uses: episodes kept 8 days (alert-pass-reads.server.ts), messages 90 (message retention).
  const episodesForgotten = new Date(Date.parse(now) - 192 * 3_600_000).toISOString();
  const messagesRemoved = new Date(Date.parse(now) - 90 * 86_400_000).toISOString();
  const sample = await db.selectFrom("places").select(["id", "user_id"]).limit(100).execute();
  const statements: Array<[string, Compilable]> = [
    [
      "woken rules' owners",
      db.selectFrom("alert_rules").select("user_id").where("next_wake_at", "<=", now).orderBy("next_wake_at").limit(5000),
    ],
    [
      "their woken rules",
      db
        .selectFrom("alert_rules")
        .selectAll()
        .where(
          "user_id",
          "in",
          sample.map((place) => place.user_id),
        )
        .where("next_wake_at", "<=", now),
    ],
    ["due feeds", db.selectFrom("watched_feeds").selectAll().where("next_refresh_at", "<=", now).orderBy("next_refresh_at").limit(5000)],
    [
      "due briefings",
      db.selectFrom("briefings").selectAll().where("enabled", "=", 1).where("next_run_at", "<=", now).orderBy("next_run_at").limit(500),
    ],
    [
      "old episodes",
      db.deleteFrom("alert_episodes").where("alerted_at", "<", episodesForgotten).where("window_to", "<", episodesForgotten),
    ],
    [
      "rules at changed places",
      db
        .selectFrom("alert_rules")
        .select("id")
        .where("enabled", "=", 1)
        .where((eb) => readingAt(eb, sample)),
    ],
    [
      "places at a coordinate",
      db
        .selectFrom("places")
        .select(["id", "user_id"])
        .where("latitude", ">=", 10)
        .where("latitude", "<=", 10.012)
        .where("longitude", ">=", -165)
        .where("longitude", "<=", -164.988),
    ],
    ["old messages", db.selectFrom("messages").select("id").where("created_at", "<", messagesRemoved).orderBy("created_at").limit(1000)],
    ["claimed rules' states", db.selectFrom("alert_states").selectAll().where("rule_id", "in", ["a", "b"])],
    ["held pushes due", db.selectFrom("held_pushes").select("user_id").distinct().where("due_at", "<=", now)],
    // The official warnings' pass reads only the areas due and the users woken (decision 026).
    [
      "warnings: areas due",
      db.selectFrom("warning_areas").selectAll().where("next_refresh_at", "<=", now).orderBy("next_refresh_at").limit(1000),
    ],
    ["warnings: users woken", db.selectFrom("warning_wakes").select("user_id").where("wake_at", "<=", now).orderBy("wake_at").limit(1000)],
    ["warnings: told and cleared", db.deleteFrom("warning_states").where("cleared_at", "<", episodesForgotten)],
  ];
  const lines: string[] = [];
  const scanned: string[] = [];
  for (const [name, statement] of statements) {
    const compiled = statement.compile();
    const { rows } = await sql<{
      "QUERY PLAN": string;
    }>`explain ${sql.raw(compiled.sql.replace(/\$(\d+)/g, (_, n: string) => literalOf(compiled.parameters[Number(n) - 1])))}`.execute(db);
    const plan = rows.map((row) => row["QUERY PLAN"]).join("\n");
    lines.push(`-- ${name}\n${plan}`);
    if (/Seq Scan/.test(plan)) scanned.push(name);
  }
  return {
    seqScans: scanned.length,
    summary: scanned.length === 0 ? `${statements.length} statements, index scans only` : `sequential scans in: ${scanned.join("; ")}`,
    plans: lines.join("\n\n"),
  };
}

function literalOf(value: unknown): string {
  return typeof value === "number" ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
}
