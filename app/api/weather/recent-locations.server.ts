import type { Db } from "../db/database.server";
import type { GeocodedLocation } from "./open-meteo.server";

/** How long addPlace(locationId) accepts a search result after it was handed out. */
export const SEARCH_RESULT_TTL_MS = 60 * 60_000;
/** How often each process deletes search results past their expiry. */
const PRUNE_EVERY_MS = 60_000;

export type RecentLocations = {
  remember(locations: readonly GeocodedLocation[]): Promise<void>;
  get(id: string): Promise<GeocodedLocation | undefined>;
};

/**
 * Search results the server has handed out, so addPlace(locationId) can save one without
 * trusting coordinates from the client. In the database (`search_results`), so the add may
 * reach another instance than the search did; each result expires an hour after it was
 * last handed out, and expired ones are deleted, which keeps the table bounded.
 */
export function createRecentLocations(db: Db, now: () => Date, ttlMs = SEARCH_RESULT_TTL_MS): RecentLocations {
  let lastPrune = now().getTime();
  return {
    async remember(locations) {
      if (locations.length === 0) return;
      const expires_at = new Date(now().getTime() + ttlMs).toISOString();
      // One row per id: a search that returns an id twice must not conflict with itself.
      const rows = [...new Map(locations.map((location) => [String(location.id), location])).entries()].map(([id, location]) => ({
        id,
        location: JSON.stringify(location),
        expires_at,
      }));
      await db
        .insertInto("search_results")
        .values(rows)
        .onConflict((conflict) =>
          conflict.column("id").doUpdateSet((eb) => ({ location: eb.ref("excluded.location"), expires_at: eb.ref("excluded.expires_at") })),
        )
        .execute();
      if (now().getTime() - lastPrune >= PRUNE_EVERY_MS) {
        lastPrune = now().getTime();
        await db.deleteFrom("search_results").where("expires_at", "<=", now().toISOString()).execute();
      }
    },
    async get(id) {
      const row = await db
        .selectFrom("search_results")
        .select("location")
        .where("id", "=", id)
        .where("expires_at", ">", now().toISOString())
        .executeTakeFirst();
      return row ? (JSON.parse(row.location) as GeocodedLocation) : undefined;
    },
  };
}
