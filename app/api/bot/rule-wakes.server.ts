import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from "kysely";
import { ALERT_METRICS } from "../../shared/enum-values";
import type { Db } from "../db/database.server";
import type { AlertRuleTable, Database, PlaceTable } from "../db/tables";
import { coordinateKey } from "../weather/forecast";
import { inScope, type UserScope } from "./shard-ranges";
import { readsFeed, type FeedKind } from "./watched-feeds.server";

/** A rule's wake-up time that is always due: it is new (the column's default), or as wakeNow gives (decision 026). */
export const WAKE_NOW = "1970-01-01T00:00:00.000Z";

const YEAR_MS = 365 * 86_400_000;

/** Half the width of a rounded coordinate's cell, and a little more: the places that round to it lie inside. */
const CELL = 0.006;

/**
 * A wake-up time for a rule woken now (edited, resumed, its weather changed): an instant of 1970 drawn at random,
 * always due, and different from the one a pass under way read for the rule, so scheduleWakes can tell that the rule
 * was woken again meanwhile without the pass writing a claim first (one write less per evaluation, decision 026).
 */
export function wakeNow(): string {
  return new Date(Math.floor(Math.random() * YEAR_MS)).toISOString();
}

/**
 * Reads the woken rules of up to `users` users of `scope` for this pass, whole users (a user's rules are decided
 * together), writing nothing: a pass that dies leaves them due for the next, and scheduleWakes writes each rule's next
 * wake only where it still holds what was read here (an edit during the pass is not lost).
 */
export async function claimWokenRules(
  db: Db,
  current: string,
  scope: UserScope,
  users: number,
  /** Whether rules due exactly at `current` count (not after the pass's first batch: it may have scheduled some then). */
  inclusive: boolean,
): Promise<AlertRuleTable[]> {
  const due = inclusive ? "<=" : "<";
  // The owners of the soonest woken rules, found on the wake index: ordered by owner instead, a planner that
  // believed many rules due walked the owners' index through every rule when none was (a tick with nothing to do).
  const picked = await db
    .selectFrom((inner) =>
      inner
        .selectFrom("alert_rules")
        .select("user_id")
        .where("next_wake_at", due, current)
        .$if(scope !== null, (scoped) => scoped.where((eb) => inScope(eb, "user_id", scope!)))
        .orderBy("next_wake_at")
        .limit(users * 10)
        .as("soonest"),
    )
    .select("soonest.user_id")
    .distinct()
    .limit(users)
    .execute();
  if (picked.length === 0) return [];
  // Then their woken rules, by the owners' index, in a statement of its own: joined to the owners in one statement,
  // PostgreSQL (its statistics saying almost no rule is due, as in a quiet hour) walked every due rule once per owner:
  // 15 million rows compared in one statement at 1,000,000 rules (issue 34).
  return db
    .selectFrom("alert_rules")
    .selectAll()
    .where(
      "user_id",
      "in",
      picked.map((row) => row.user_id),
    )
    .where("next_wake_at", due, current)
    .execute();
}

/** A claimed rule's next wake-up time (ISO, or null: only a change wakes it), and the one it had when claimed. */
export type ScheduledWake = { id: string; read: string | null; next: string | null };

/**
 * Sets each claimed rule's next wake-up time where it still holds the one read at its claim, 500 rules a statement
 * (a join with their values). Where it does not, the rule was woken again during the pass and stays woken.
 */
export async function scheduleWakes(db: Db, wakes: readonly ScheduledWake[]): Promise<void> {
  for (let start = 0; start < wakes.length; start += 500) {
    const chunk = wakes.slice(start, start + 500);
    const rows = chunk.map((wake) => sql`(${wake.id}, ${wake.read}, ${wake.next})`);
    // VALUES' columns are column1… on both databases. The ids again as a list: joined to the VALUES alone (whose size
    // the planner does not know), PostgreSQL read the whole table into a hash.
    await sql`
      UPDATE alert_rules SET next_wake_at = v.column3
      FROM (VALUES ${sql.join(rows)}) AS v
      WHERE alert_rules.id IN (${sql.join(chunk.map((wake) => wake.id))})
        AND alert_rules.id = v.column1 AND alert_rules.next_wake_at = v.column2`.execute(db);
  }
}

/** The rules that read the weather at these places: those naming one, and those of its owner that cover all theirs. */
export function readingAt(
  eb: ExpressionBuilder<Database, "alert_rules">,
  places: ReadonlyArray<Pick<PlaceTable, "id" | "user_id">>,
): Expression<SqlBool> {
  return eb.or([
    eb(
      "place_id",
      "in",
      places.map((place) => place.id),
    ),
    eb.and([
      eb("place_id", "is", null),
      eb(
        "user_id",
        "in",
        places.map((place) => place.user_id),
      ),
    ]),
  ]);
}

/** Wakes every enabled rule of this user (a place or a setting of theirs changed). */
export async function wakeRulesOf(db: Kysely<Database>, userId: string): Promise<void> {
  await db.updateTable("alert_rules").set({ next_wake_at: wakeNow() }).where("user_id", "=", userId).where("enabled", "=", 1).execute();
}

/**
 * Wakes the enabled rules that read this kind of weather at these rounded coordinates (changed): those naming a place
 * there, and those of the place's owner that cover all their places. Returns the coordinates where no place is left.
 */
export async function wakeRulesAt(db: Db, changed: ReadonlyArray<{ key: string; kind: FeedKind }>): Promise<string[]> {
  const unwatched: string[] = [];
  for (const kind of ["forecast", "nowcast", "air"] as const) {
    const keys = [...new Set(changed.filter((change) => change.kind === kind).map((change) => change.key))];
    for (let start = 0; start < keys.length; start += 100) unwatched.push(...(await wakeCells(db, keys.slice(start, start + 100), kind)));
  }
  return [...new Set(unwatched)];
}

async function wakeCells(db: Db, chunk: string[], kind: FeedKind): Promise<string[]> {
  const wanted = new Set(chunk);
  const cells = chunk.map((key) => key.split(",").map(Number) as [number, number]);
  const candidates = await db
    .selectFrom("places")
    .select(["id", "user_id", "latitude", "longitude"])
    .where((eb) =>
      eb.or(
        cells.map(([latitude, longitude]) =>
          eb.and([
            eb("latitude", ">=", latitude - CELL),
            eb("latitude", "<=", latitude + CELL),
            eb("longitude", ">=", longitude - CELL),
            eb("longitude", "<=", longitude + CELL),
          ]),
        ),
      ),
    )
    .execute();
  const places = candidates.filter((place) => wanted.has(coordinateKey(place)));
  const found = new Set(places.map((place) => coordinateKey(place)));
  const metrics = ALERT_METRICS.filter((metric) => readsFeed(metric, kind));
  for (let first = 0; first < places.length; first += 500) {
    const some = places.slice(first, first + 500);
    await db
      .updateTable("alert_rules")
      .set({ next_wake_at: wakeNow() })
      .where("enabled", "=", 1)
      .where("metric", "in", metrics)
      .where((eb) => readingAt(eb, some))
      .execute();
  }
  return chunk.filter((key) => !found.has(key));
}
