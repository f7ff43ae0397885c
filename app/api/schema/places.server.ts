import { randomUUID } from "node:crypto";
import { limitAnonymousLookup, requireUserId, type ApiContext } from "../context.server";
import type { ChangeTracker } from "../db/change-tracker.server";
import type { Db } from "../db/database.server";
import { removePlaceWithSnapshot, restoreRemovedPlace, RESTORE_WINDOW_MS } from "../db/place-snapshots.server";
import { createReadCache } from "../db/read-cache.server";
import type { PlaceTable } from "../db/tables";
import { lockUser } from "../db/user-lock.server";
import { apiError, badInput, notFound } from "../errors.server";
import { parseInput } from "../input.server";
import { cacheable, cacheableFields } from "../result-cache.server";
import { addPlaceInput, LABEL_CONTROL_CHARACTER, renamePlaceInput } from "../../shared/inputs/place";
import type { GeocodedLocation } from "../weather/open-meteo.server";
import type { LocationResolvers, PlaceResolvers, Resolvers } from "./resolvers.generated";
import { wakeRulesOf } from "../bot/rule-wakes.server";
import { wakeWarnings } from "../bot/warning-wakes.server";

export const MAX_PLACES = 20;
const QUERY_MAX_LENGTH = 100;

const LANGUAGE_CODES: Record<string, string> = { EN_US: "en", DE_DE: "de", FR_FR: "fr", ES_ES: "es" };

/** A label as the shared schema reads it (whitespace folded), or BAD_USER_INPUT naming `label`. */
const cleanLabel = (label: string) => parseInput(renamePlaceInput, { label }).label;

/** Users whose place lists are cached in memory. */
const PLACE_LIST_CACHE_ENTRIES = 10_000;

/** Each user's places in order, cached until places are written (every screen of the app asks). */
export function createPlaceLists(changes: ChangeTracker, db: Db) {
  return createReadCache<string, readonly PlaceTable[]>({ changes, db, maxEntries: PLACE_LIST_CACHE_ENTRIES });
}

// The list is shared by every request until places are written: resolvers pass it on and never change it.
function userPlaces(context: ApiContext, userId: string) {
  return <Promise<PlaceTable[]>>(
    context.placeLists.get(userId, context.reads, (db) =>
      db.selectFrom("places").selectAll().where("user_id", "=", userId).orderBy("position").execute(),
    )
  );
}

function findOwnPlace(context: ApiContext, userId: string, id: string) {
  return context.db.selectFrom("places").selectAll().where("id", "=", id).where("user_id", "=", userId).executeTakeFirst();
}

async function ownPlace(context: ApiContext, userId: string, id: string) {
  // Another user's place and a missing one answer the same: nothing about it leaks.
  const row = await findOwnPlace(context, userId, id);
  if (!row) throw notFound("Place");
  return row;
}

export const placesResolvers: Resolvers = {
  User: {
    places: cacheable((user, _, context) => userPlaces(context, user.id)),
  },
  // Read from the row alone.
  Place: cacheableFields<PlaceResolvers>({
    countryCode: (place) => place.country_code,
    timeZone: (place) => place.time_zone,
  }),
  Location: cacheableFields<LocationResolvers>({
    id: (location) => String(location.id),
    admin1: (location) => location.admin1 ?? null,
    country: (location) => location.country ?? null,
    countryCode: (location) => location.country_code ?? null,
    timeZone: (location) => location.timezone!,
    population: (location) => location.population ?? null,
  }),
  Query: {
    places: cacheable((_, __, context) => userPlaces(context, requireUserId(context))),
    // From the cached list, so the home page's open place is a cached answer like the list (decision 027).
    place: cacheable(
      async (_, { id }, context) => (await userPlaces(context, requireUserId(context))).find((place) => place.id === id) ?? null,
    ),
    async searchLocations(_, args, context) {
      const query = args.query.trim();
      const count = args.count ?? 8;
      if (query.length > QUERY_MAX_LENGTH) throw badInput(`A search has at most ${QUERY_MAX_LENGTH} characters`, "query");
      if (!Number.isInteger(count) || count < 1 || count > 20) throw badInput("count must be from 1 to 20", "count");
      // Open-Meteo returns nothing for one character; do not spend a call on it.
      if (query.length < 2) return [];
      await limitAnonymousLookup(context);
      let language = "en";
      if (context.session) {
        const settings = await context.db
          .selectFrom("settings")
          .select("language")
          .where("user_id", "=", context.session.userId)
          .executeTakeFirst();
        language = LANGUAGE_CODES[settings?.language ?? "EN_US"] ?? "en";
      }
      let results: GeocodedLocation[];
      try {
        results = await context.openMeteo.search(query, count, language);
      } catch (error) {
        throw apiError("WEATHER_UNAVAILABLE", "Place search is not available right now; try again in a few minutes", {
          cause: (error as Error).message,
        });
      }
      const found = results.filter((location) => location.timezone);
      await context.recentLocations.remember(found);
      return found;
    },
  },

  Mutation: {
    async addPlace(_, args, context) {
      const userId = requireUserId(context);
      const input = parseInput(addPlaceInput, args);
      let base: Omit<PlaceTable, "id" | "user_id" | "label" | "position" | "created_at">;
      if (args.locationId) {
        const location = await context.recentLocations.get(args.locationId);
        if (!location?.timezone) throw apiError("NOT_FOUND", "Location not found; search for it again", { field: "locationId" });
        base = {
          name: location.name,
          admin1: location.admin1 ?? null,
          country_code: location.country_code ?? null,
          latitude: location.latitude,
          longitude: location.longitude,
          time_zone: location.timezone,
        };
      } else if (typeof args.latitude === "number" && typeof args.longitude === "number") {
        // The forecast says which time zone the coordinate is in.
        const { forecast } = await context.forecasts.get({ latitude: args.latitude, longitude: args.longitude });
        base = {
          name: `${args.latitude.toFixed(2)}, ${args.longitude.toFixed(2)}`,
          admin1: null,
          country_code: null,
          latitude: args.latitude,
          longitude: args.longitude,
          time_zone: forecast.timeZone,
        };
      } else {
        // The schema already refused this (LOCATION_REQUIRED).
        throw new Error("addPlace without a location");
      }
      const label = input.label ?? cleanLabel(base.name.replace(new RegExp(LABEL_CONTROL_CHARACTER.source, "gu"), ""));
      const row = await context.db.transaction().execute(async (trx) => {
        await lockUser(trx, userId);
        const existing = await trx.selectFrom("places").select(["position"]).where("user_id", "=", userId).execute();
        if (existing.length >= MAX_PLACES) throw badInput(`You can save up to ${MAX_PLACES} places`);
        const place: PlaceTable = {
          id: randomUUID(),
          user_id: userId,
          label,
          ...base,
          position: existing.reduce((max, { position }) => Math.max(max, position + 1), 0),
          created_at: context.now().toISOString(),
        };
        await trx.insertInto("places").values(place).execute();
        // Rules that cover all the user's places have one more to read.
        await wakeRulesOf(trx, userId);
        await wakeWarnings(trx, [userId]);
        return place;
      });
      return row;
    },

    async renamePlace(_, args, context) {
      const userId = requireUserId(context);
      const label = cleanLabel(args.label);
      const row = await ownPlace(context, userId, args.id);
      await context.db.updateTable("places").set({ label }).where("id", "=", row.id).where("user_id", "=", userId).execute();
      return { ...row, label };
    },

    async reorderPlaces(_, { ids }, context) {
      const userId = requireUserId(context);
      return context.db.transaction().execute(async (trx) => {
        await lockUser(trx, userId);
        const rows = await trx.selectFrom("places").selectAll().where("user_id", "=", userId).execute();
        const known = new Set(rows.map((row) => row.id));
        const unique = new Set(ids);
        if (unique.size !== ids.length || ids.length !== rows.length || ids.some((id) => !known.has(id))) {
          throw badInput("Give each of your places exactly once", "ids");
        }
        await Promise.all(
          ids.map((id, position) =>
            trx.updateTable("places").set({ position }).where("id", "=", id).where("user_id", "=", userId).execute(),
          ),
        );
        const byId = new Map(rows.map((row) => [row.id, row]));
        return ids.map((id, position) => ({ ...byId.get(id)!, position }));
      });
    },

    async removePlace(_, { id }, context) {
      const userId = requireUserId(context);
      const removed = await context.db.transaction().execute(async (trx) => {
        await lockUser(trx, userId);
        return removePlaceWithSnapshot(trx, userId, id, context.now());
      });
      if (!removed) throw notFound("Place");
      return id;
    },

    async restorePlace(_, { id }, context) {
      const userId = requireUserId(context);
      const row = await context.db.transaction().execute(async (trx) => {
        await lockUser(trx, userId);
        const count = await trx.selectFrom("places").select("id").where("user_id", "=", userId).execute();
        if (count.length >= MAX_PLACES) throw badInput(`You can save up to ${MAX_PLACES} places`);
        return restoreRemovedPlace(trx, userId, id, context.now());
      });
      if (!row) {
        throw apiError("NOT_FOUND", `Nothing to restore: no place was removed here in the last ${RESTORE_WINDOW_MS / 60_000} minutes`);
      }
      return row;
    },
  },
};
