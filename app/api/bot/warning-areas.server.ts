import { createHash } from "node:crypto";
import type { Db } from "../db/database.server";
import type { PlaceTable, WarningAreaTable } from "../db/tables";
import type { AreaState, OfficialWarnings, WarningsOutcome } from "../warnings/official-warnings.server";
import { inScope, type UserScope } from "./shard-ranges";
import { LOCALE_OF } from "./texts.server";
import { wakeWarnings } from "./warning-wakes.server";

/** Areas read again in one pass at most: the rest wait for the next. */
const REFRESH_LIMIT = 1000;
/** Areas (and places of a changed area) asked of the layer at once: each may be a request to a service. */
const CONCURRENT_READS = 8;

const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

type AreaDeps = { db: Db; warnings: OfficialWarnings; refreshSpread?: boolean };

/** What a user's warnings are decided on at one place, as a hash: another answer there wakes the user. */
export function placeHash(outcome: WarningsOutcome): string {
  if (outcome.status !== "ok") return sha1(JSON.stringify([outcome.status, outcome.reason]));
  const warnings = outcome.warnings.map((warning) => [warning.id, warning.messageId, warning.messageType, warning.sent, warning.match]);
  return sha1(JSON.stringify([outcome.stale, outcome.incomplete, warnings]));
}

/** The user's language as the warnings layer takes it. */
export const warningLanguage = (language: string) => LOCALE_OF[language] ?? "en-US";

/** Runs `read` over `items`, a few at once, in their order. */
export async function readFew<T, R>(items: readonly T[], read: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(CONCURRENT_READS, items.length) }, async () => {
    for (let index = next++; index < items.length; index = next++) results[index] = await read(items[index]!);
  });
  await Promise.all(workers);
  return results;
}

/**
 * When an area read at `current` is read again: as its answer expires (spread: in the area's own phase of the cycle,
 * so areas first watched together are not read in the same minute ever after), a failing service's sooner, and no
 * later than the next warning block expiring (its answer changes then without a fetch).
 */
function nextRead(
  { area_key }: Pick<WarningAreaTable, "area_key">,
  state: AreaState,
  current: number,
  warnings: OfficialWarnings,
  spread: boolean,
) {
  const cycle = warnings.refreshMs;
  let next = state.fetchedAt === null || state.stale ? current + warnings.failureRetryMs : state.fetchedAt.getTime() + cycle;
  if (spread && !state.stale && state.fetchedAt !== null) {
    const phase = parseInt(sha1(area_key).slice(0, 8), 16) % cycle;
    next += (phase - (next % cycle) + cycle) % cycle;
  }
  if (state.changesAt !== null) next = Math.min(next, state.changesAt.getTime());
  return new Date(Math.max(next, current + 1)).toISOString();
}

function areaRow(areaKey: string, state: AreaState, current: number, deps: AreaDeps): WarningAreaTable {
  return {
    area_key: areaKey,
    // A hex key, so the shards' user-id ranges cut the areas as they cut users.
    shard_key: sha1(areaKey).slice(0, 12),
    content_hash: state.hash,
    fetched_at: state.fetchedAt?.toISOString() ?? null,
    next_refresh_at: nextRead({ area_key: areaKey }, state, current, deps.warnings, deps.refreshSpread ?? false),
  };
}

async function writeAreas(db: Db, rows: WarningAreaTable[], replace: boolean): Promise<void> {
  for (let start = 0; start < rows.length; start += 500) {
    await db
      .insertInto("warning_areas")
      .values(rows.slice(start, start + 500))
      .onConflict((conflict) => {
        const target = conflict.column("area_key");
        return replace
          ? target.doUpdateSet((eb) => ({
              content_hash: eb.ref("excluded.content_hash"),
              fetched_at: eb.ref("excluded.fetched_at"),
              next_refresh_at: eb.ref("excluded.next_refresh_at"),
            }))
          : target.doNothing();
      })
      .execute();
  }
}

/**
 * Reads again the warnings areas (of the shards in `scope`) whose time has come, and where an area's answer changed,
 * the answer at each of its places: the users of the places whose answer changed are woken (decision 026). An area
 * that did not change costs one row; a place is looked at only when its area changed. Returns the users woken.
 */
export async function refreshWarningAreas(deps: AreaDeps, current: Date, scope: UserScope): Promise<string[]> {
  const { db, warnings } = deps;
  const due = await db
    .selectFrom("warning_areas")
    .selectAll()
    .where("next_refresh_at", "<=", current.toISOString())
    .$if(scope !== null, (query) => query.where((eb) => inScope(eb, "shard_key", scope!)))
    .orderBy("next_refresh_at")
    .limit(REFRESH_LIMIT)
    .execute();
  if (due.length === 0) return [];
  const states = await readFew(due, (row) => warnings.areaState(row.area_key));
  const rows = due.map((row, index) => areaRow(row.area_key, states[index]!, current.getTime(), deps));
  await writeAreas(db, rows, true);
  const changed = rows.filter((row, index) => row.content_hash !== due[index]!.content_hash);
  const woken: string[] = [];
  for (let start = 0; start < changed.length; start += 100) woken.push(...(await changedPlaces(deps, changed.slice(start, start + 100))));
  await wakeWarnings(db, woken);
  return [...new Set(woken)];
}

/** The owners of the places in these areas whose answer is not the one their warnings were last decided on. */
async function changedPlaces({ db, warnings }: AreaDeps, areas: WarningAreaTable[]): Promise<string[]> {
  const fetchedAt = new Map(areas.map((area) => [area.area_key, area.fetched_at]));
  const rows = await db
    .selectFrom("warning_places")
    .innerJoin("places", "places.id", "warning_places.place_id")
    .innerJoin("settings", "settings.user_id", "warning_places.user_id")
    .selectAll("places")
    .select(["warning_places.area_key", "warning_places.content_hash", "settings.language"])
    .where(
      "warning_places.area_key",
      "in",
      areas.map((area) => area.area_key),
    )
    .execute();
  const hashes = await readFew(rows, async (row) => {
    const notBefore = fetchedAt.get(row.area_key);
    return placeHash(
      await warnings.warningsFor(warningPlace(row), warningLanguage(row.language), notBefore ? new Date(notBefore) : undefined),
    );
  });
  return rows.filter((row, index) => hashes[index] !== row.content_hash).map((row) => row.user_id);
}

/**
 * Keeps what the users' warnings were decided on: each covered place's area and answer (as a hash), and the areas not
 * watched yet, to be read again when due.
 */
export async function recordDecided(
  deps: AreaDeps,
  decided: ReadonlyArray<{ place: PlaceTable; areaKey: string; outcome: WarningsOutcome }>,
  current: Date,
): Promise<void> {
  const { db, warnings } = deps;
  const places = decided.map(({ place, areaKey, outcome }) => ({
    place_id: place.id,
    user_id: place.user_id,
    area_key: areaKey,
    content_hash: placeHash(outcome),
  }));
  for (let start = 0; start < places.length; start += 500) {
    await db
      .insertInto("warning_places")
      .values(places.slice(start, start + 500))
      .onConflict((conflict) =>
        conflict.column("place_id").doUpdateSet((eb) => ({
          area_key: eb.ref("excluded.area_key"),
          content_hash: eb.ref("excluded.content_hash"),
        })),
      )
      .execute();
  }
  const areaKeys = [...new Set(places.map((place) => place.area_key))];
  const known = new Set<string>();
  for (let start = 0; start < areaKeys.length; start += 500) {
    const rows = await db
      .selectFrom("warning_areas")
      .select("area_key")
      .where("area_key", "in", areaKeys.slice(start, start + 500))
      .execute();
    for (const row of rows) known.add(row.area_key);
  }
  const fresh = areaKeys.filter((key) => !known.has(key));
  const states = await readFew(fresh, (key) => warnings.areaState(key));
  await writeAreas(
    db,
    fresh.map((key, index) => areaRow(key, states[index]!, current.getTime(), deps)),
    false,
  );
}

/** A saved place as the warnings layer reads it. */
export const warningPlace = (place: PlaceTable) => ({
  latitude: place.latitude,
  longitude: place.longitude,
  countryCode: place.country_code,
  name: place.name,
  admin1: place.admin1,
});
