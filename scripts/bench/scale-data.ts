/**
 * Rows for the engine-at-scale benchmark, written by the database itself (INSERT … SELECT over a generated series):
 * a million rules in seconds, not the minutes row-by-row inserts would take. Each user has one place and 10 rules on
 * it: one for gusts of 70 km/h (told when the fake's forecast shows a gale), 9 for temperatures never reached; and a
 * briefing due the next morning.
 */
import { sql, type Kysely } from "kysely";
import type { Database } from "../../app/api/db/tables";
import { defaultSettings } from "../../app/api/db/settings-rows";

export const RULES_PER_USER = 10;

type Dialect = "sqlite" | "postgres";

/** A UUID-shaped id from a number: a spread first block (the engine's shards cut ids by their first digits), unique. */
function idOf(dialect: Dialect, kind: number, n: string): string {
  const spread = `((${n}) * 2654435761) % 4294967296`;
  return dialect === "postgres"
    ? `lpad(to_hex(${spread}), 8, '0') || '-${kind.toString(16).padStart(4, "0")}-4000-8000-' || lpad(to_hex(${n}), 12, '0')`
    : `printf('%08x-%04x-4000-8000-%012x', ${spread}, ${kind}, ${n})`;
}

/** The numbers 1..count as rows `i`. */
function series(dialect: Dialect, count: number): string {
  return dialect === "postgres"
    ? `(SELECT generate_series(1, ${count}) AS i) AS s`
    : `(WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count}) SELECT i FROM n) AS s`;
}

const literal = (value: unknown) => (value === null ? "NULL" : typeof value === "number" ? String(value) : `'${String(value)}'`);

/** `placesPerUser` places each (1 by default), the rules on the first one or, `everyPlace`, on all of them (place_id null). */
export async function generateScaleData(
  db: Kysely<Database>,
  dialect: Dialect,
  users: number,
  { placesPerUser = 1, everyPlace = false } = {},
): Promise<void> {
  const created = "2026-05-01T00:00:00.000Z";
  const user = idOf(dialect, 0, "i");
  const run = (text: string) => sql.raw(text).execute(db);
  await run(
    `INSERT INTO users (id, email, password_hash, created_at) SELECT ${user}, 'u' || i || '@scale.example', '-', '${created}' FROM ${series(dialect, users)}`,
  );
  const settings = defaultSettings("-", "EN_US", "UTC");
  const columns = Object.keys(settings).filter((column) => column !== "user_id");
  await run(
    `INSERT INTO settings (user_id, ${columns.join(", ")}) SELECT ${user}, ${columns.map((column) => literal(settings[column as keyof typeof settings])).join(", ")} FROM ${series(dialect, users)}`,
  );
  const place = idOf(dialect, 1, "i");
  for (let p = 0; p < placesPerUser; p++) {
    // A grid of 0.1° cells: every place its own rounded coordinate.
    const n = `(i * ${placesPerUser} + ${p})`;
    await run(
      `INSERT INTO places (id, user_id, label, name, admin1, country_code, latitude, longitude, time_zone, position, created_at)
       SELECT ${p === 0 ? place : idOf(dialect, 0x100 + p, "i")}, ${user}, 'P${p}', 'P${p}', NULL, NULL, -60 + (${n} % 1200) * 0.1,
         -170 + (${n} / 1200) * 0.1, 'UTC', ${p}, '${created}' FROM ${series(dialect, users)}`,
    );
  }
  for (let r = 0; r < RULES_PER_USER; r++) {
    const gusts = r === 0;
    await run(
      `INSERT INTO alert_rules (id, user_id, name, enabled, place_id, metric, comparator, threshold, conditions, lookahead_hours,
         active_days, active_from, active_to, urgent, notify_all_clear, cooldown_hours, snoozed_until, created_at, watched_since)
       SELECT ${idOf(dialect, 16 + r, "i")}, ${user}, 'R${r}', 1, ${everyPlace ? "NULL" : place}, '${gusts ? "WIND_GUSTS" : "TEMPERATURE"}', 'AT_LEAST',
         ${gusts ? 70 : 60 + r}, NULL, 24, 'MON,TUE,WED,THU,FRI,SAT,SUN', NULL, NULL, 0, 1, 1, NULL, '${created}', '${created}'
       FROM ${series(dialect, users)}`,
    );
  }
  // A morning briefing each, due the next day: a tick reads only the due ones (none, in the simulated half hour).
  await run(
    `INSERT INTO briefings (id, user_id, name, enabled, period, time, days, next_run_at, last_sent_at, created_at, delivery)
     SELECT ${idOf(dialect, 2, "i")}, ${user}, 'Morning', 1, 'TODAY', '05:00', 'MON,TUE,WED,THU,FRI,SAT,SUN',
       '2026-06-02T05:00:00.000Z', NULL, '${created}', 'PUSH'
     FROM ${series(dialect, users)}`,
  );
  // Official warnings' rows (decision 026), none due in the simulated half hour: an area per 10 users (NWS grid points), a
  // tenth of the users woken tomorrow, and a warning told and cleared yesterday for each: EXPLAIN plans the tick's warnings reads
  // on tables of their size, not on empty ones (where a sequential scan is what an index would cost).
  const tenth = Math.ceil(users / 10);
  const tomorrow = "2026-06-02T05:00:00.000Z";
  await run(
    `INSERT INTO warning_areas (area_key, shard_key, content_hash, fetched_at, next_refresh_at)
     SELECT 'bench-area-' || i, ${idOf(dialect, 3, "i")}, '-', '${created}', '${tomorrow}' FROM ${series(dialect, tenth)}`,
  );
  await run(`INSERT INTO warning_wakes (user_id, wake_at) SELECT ${user}, '${tomorrow}' FROM ${series(dialect, tenth)}`);
  await run(
    `INSERT INTO warning_states (user_id, warning_id, message_id, issued_id, sent, place_ids, content, told_at, cleared_at)
     SELECT ${user}, 'bench', 'm' || i, 'm' || i, NULL, ${place}, '{}', '2026-05-31T06:00:00.000Z', '2026-05-31T12:00:00.000Z'
     FROM ${series(dialect, tenth)}`,
  );
  // A push held overnight for a tenth of the users, due when their quiet hours end tomorrow: a tick reads only the due.
  const message = idOf(dialect, 4, "i");
  await run(
    `INSERT INTO messages (id, user_id, kind, title, body, created_at, read_at, urgent, place_id, briefing_id, dedupe_key,
       alert_rule_id, match_json, content)
     SELECT ${message}, ${user}, 'ALERT', 'Held', 'Held', '2026-05-31T23:00:00.000Z', NULL, 0, ${place}, NULL, 'held-' || i, NULL, NULL, NULL
     FROM ${series(dialect, tenth)}`,
  );
  await run(
    `INSERT INTO held_pushes (message_id, user_id, created_at, due_at)
     SELECT ${message}, ${user}, '2026-05-31T23:00:00.000Z', '${tomorrow}' FROM ${series(dialect, tenth)}`,
  );
  if (dialect === "postgres") await run("ANALYZE");
}
